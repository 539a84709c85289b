// expect: compiles
// The control: the spellings the failures above should have used, and sends that expect no result.
import CaptureStrategies

func readName(of object: RuntimeObject, _ selector: RuntimeSelector) throws -> String? {
  try object.send(selector, 5)
  _ = try? object.send(selector)
  let name: String = try object.send(selector, 5, returning: String.self)
  let other: String? = try? object.send(selector, 5, "six", returning: String.self)
  return other ?? name
}
