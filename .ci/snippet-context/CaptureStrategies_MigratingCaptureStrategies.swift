// What MigratingCaptureStrategies.md's blocks use without declaring it: an object and a message.
// Compile-only: the check never runs this code.
import CaptureStrategies
import Foundation

let heightFor = ListHost.heightForRow
@MainActor let row = RuntimeObject(class: try! Runtime.makeClass(named: "Row", methods: [:]))
let indexPath = IndexPath(indexes: [0, 1])
