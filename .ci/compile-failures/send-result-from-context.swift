// expect-error: name the result type with 'returning:'
// A send whose result type would come from the annotation, not from `returning:`.
import CaptureStrategies

func readName(of object: RuntimeObject, _ selector: RuntimeSelector) throws -> String {
  let name: String = try object.send(selector, 5)
  return name
}
