import Testing
@testable import HeadlessUI
