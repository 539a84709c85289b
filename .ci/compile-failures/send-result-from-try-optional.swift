// expect-error: name the result type with 'returning:'
// The `try?` spelling, which made Swift 6.3.1 fail to produce any diagnostic.
import CaptureStrategies

func readName(of object: RuntimeObject, _ selector: RuntimeSelector) -> String? {
  let name: String? = try? object.send(selector, 5)
  return name
}
