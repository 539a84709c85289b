// The manual clock moved to the AutoTrackTesting product; this target re-exports it so code that
// still imports ClockTestSupport (the delivery tests, the kill helper) builds unchanged.
@_exported import AutoTrackTesting
