import AutoTrack
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Foundation
import Testing

/// Seeded random rules documents, valid and broken in one known way each, in JSON and as XML
/// property lists. A valid document decodes to the rules it was built from; a broken one gives
/// the typed error its break calls for, naming the file, and exactly one defect at the broken key
/// path; it never crashes.
///
/// Seeds `1...cases` run in CI: 2,000, a quarter of them under a sanitizer (`StressSize`). To
/// replay one case: `DPK_RULES_FUZZ_SEED=<seed> swift test --filter RulesFuzzTests`; to run
/// more: `DPK_RULES_FUZZ_CASES=<n>`.
@Suite struct RulesFuzzTests {
  static let defaultCases = StressSize.scaled(2_000)

  @Test func randomRulesDocumentsDecodeOrFailAsTheirBreakSays() {
    let environment = ProcessInfo.processInfo.environment
    let seeds: [UInt64]
    if let replay = environment["DPK_RULES_FUZZ_SEED"].flatMap(UInt64.init) {
      seeds = [replay]
    } else {
      seeds = (1...UInt64(environment["DPK_RULES_FUZZ_CASES"].flatMap(Int.init) ?? Self.defaultCases)).map { $0 }
    }
    var failures = 0
    var outcomes: [String: Int] = [:]
    for seed in seeds {
      var generator = RulesDocumentGenerator(seed: seed)
      let (outcome, failure) = generator.runCase()
      outcomes[outcome, default: 0] += 1
      if let failure {
        failures += 1
        Issue.record(
          "seed \(seed): \(failure)\nreplay: DPK_RULES_FUZZ_SEED=\(seed) swift test --filter RulesFuzzTests")
        if failures >= 5 { break }
      }
    }
    #expect(failures == 0)
    print(
      "RulesFuzzTests: \(seeds.count) documents; "
        + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    // Every kind of break was generated, in both formats.
    let kinds = Set(outcomes.keys)
    for kind in RulesDocumentGenerator.Break.allCases where seeds.count >= 500 {
      #expect(kinds.contains("json \(kind)") && (kind.jsonOnly || kinds.contains("plist \(kind)")), "\(kind)")
    }
  }
}

struct RulesDocumentGenerator {
  enum Break: String, CaseIterable {
    case none, wrongType, unknownKey, duplicateKey, emptyEventID, debounceOutOfRange, deepNesting, invalidUTF8
    case truncated

    var jsonOnly: Bool { self == .invalidUTF8 }
  }

  /// A place in the document: its key path as errors spell it, and whether it is a fixed-key
  /// object (where an extra key is unknown) or an event id.
  struct Site {
    var keyPath: String
    var isStructObject = false
    var isEventID = false
  }

  var random: SplitMix64
  var sites: [Site] = []

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  // MARK: Generating valid documents

  /// Random text; a key (`forKey`) has no `.`, `[` or `]`, which key paths use as separators.
  mutating func text(allowingControl: Bool, forKey: Bool = false) -> String {
    var pieces = ["a", "Z", "0", "_", "-", " ", "/", "é", "ß", "字", "🙂", "\"", "\\", "'", "&", "<", ">", "{", "}"]
    if !forKey { pieces += [".", "[", "]"] }
    let control = ["\n", "\t", "\u{1}"]
    let length = 1 + random.below(8)
    return (0..<length).map { _ in
      allowingControl && random.oneIn(12) ? random.pick(control) : random.pick(pieces)
    }.joined()
  }

  mutating func eventID(_ path: String, _ plist: Bool) -> (RulesNode, String) {
    sites.append(Site(keyPath: path, isEventID: true))
    let id = text(allowingControl: !plist)
    return (.string(id), id)
  }

  mutating func stringMap(_ path: String, _ plist: Bool, eventIDs: Bool) -> (RulesNode, [String: String]) {
    var members: [(String, RulesNode)] = []
    var map: [String: String] = [:]
    for _ in 0..<random.below(4) {
      let key = text(allowingControl: false, forKey: true)
      guard map[key] == nil else { continue }
      let value = text(allowingControl: !plist)
      members.append((key, .string(value)))
      map[key] = value
      sites.append(Site(keyPath: path + "." + key, isEventID: eventIDs))
    }
    return (.object(members.map { (key: $0.0, value: $0.1) }), map)
  }

  mutating func stringList(_ path: String, _ plist: Bool) -> (RulesNode, [String]) {
    let list = (0..<random.below(4)).map { _ in text(allowingControl: !plist) }
    for index in list.indices { sites.append(Site(keyPath: "\(path)[\(index)]")) }
    return (.array(list.map { .string($0) }), list)
  }

  mutating func document(plist: Bool) -> (RulesNode, TrackingRules) {
    sites = []
    var rules = TrackingRules()
    var members: [(key: String, value: RulesNode)] = []
    sites.append(Site(keyPath: "", isStructObject: true))
    if random.oneIn(2) {
      let milliseconds = random.below(60_001)
      rules.debounceWindow = .milliseconds(milliseconds)
      members.append(("debounceMs", .int(milliseconds)))
      sites.append(Site(keyPath: "debounceMs"))
    }
    if random.oneIn(2) {
      rules.dropUnconfigured = random.oneIn(2)
      members.append(("dropUnconfigured", .bool(rules.dropUnconfigured)))
      sites.append(Site(keyPath: "dropUnconfigured"))
    }
    if random.oneIn(3) == false {
      var screens: [(key: String, value: RulesNode)] = []
      sites.append(Site(keyPath: "screens"))
      for _ in 0..<random.below(4) {
        let name = text(allowingControl: false, forKey: true)
        guard rules.screens[name] == nil else { continue }
        let base = "screens." + name
        sites.append(Site(keyPath: base, isStructObject: true))
        var rule = ScreenRule()
        var fields: [(key: String, value: RulesNode)] = []
        if random.oneIn(2) {
          let (node, id) = eventID(base + ".viewEvent", plist)
          fields.append(("viewEvent", node))
          rule.viewEvent = id
        }
        if random.oneIn(2) {
          let (node, id) = eventID(base + ".leaveEvent", plist)
          fields.append(("leaveEvent", node))
          rule.leaveEvent = id
        }
        if random.oneIn(2) {
          let (node, id) = eventID(base + ".listSelection", plist)
          fields.append(("listSelection", node))
          rule.listSelection = id
        }
        if random.oneIn(2) {
          sites.append(Site(keyPath: base + ".actions"))
          let (node, map) = stringMap(base + ".actions", plist, eventIDs: true)
          fields.append(("actions", node))
          rule.actions = map
        }
        if random.oneIn(2) {
          sites.append(Site(keyPath: base + ".properties"))
          let (node, map) = stringMap(base + ".properties", plist, eventIDs: false)
          fields.append(("properties", node))
          rule.properties = map
        }
        screens.append((name, .object(fields)))
        rules.screens[name] = rule
      }
      members.append(("screens", .object(screens)))
    }
    for (section, keys) in [
      ("ignore", ["viewIdentifiers", "viewTypes", "screenTypes", "events"]),
      ("remote", ["allowPaths", "denyPaths", "allowEvents", "denyEvents"]),
    ] where random.oneIn(2) {
      sites.append(Site(keyPath: section, isStructObject: true))
      var fields: [(key: String, value: RulesNode)] = []
      for key in keys where random.oneIn(2) {
        sites.append(Site(keyPath: section + "." + key))
        let (node, list) = stringList(section + "." + key, plist)
        fields.append((key, node))
        switch (section, key) {
        case ("ignore", "viewIdentifiers"): rules.ignore.viewIdentifiers = list
        case ("ignore", "viewTypes"): rules.ignore.viewTypes = list
        case ("ignore", "screenTypes"): rules.ignore.screenTypes = list
        case ("ignore", "events"): rules.ignore.events = list
        case ("remote", "allowPaths"): rules.remote.allowPaths = list
        case ("remote", "denyPaths"): rules.remote.denyPaths = list
        case ("remote", "allowEvents"): rules.remote.allowEvents = list
        default: rules.remote.denyEvents = list
        }
      }
      members.append((section, .object(fields)))
    }
    members.shuffle(using: &random)
    return (.object(members), rules)
  }

  // MARK: Breaking them

  /// Replaces the node at `keyPath` (as errors spell it) by `transform` of it.
  static func replacing(
    _ node: RulesNode, at keyPath: String, prefix: String = "", _ transform: (RulesNode) -> RulesNode
  ) -> RulesNode {
    if prefix == keyPath { return transform(node) }
    switch node {
    case .object(let members):
      return .object(
        members.map { member in
          let path = prefix.isEmpty ? member.key : prefix + "." + member.key
          return (member.key, replacing(member.value, at: keyPath, prefix: path, transform))
        })
    case .array(let elements):
      return .array(
        elements.enumerated().map { index, element in
          replacing(element, at: keyPath, prefix: "\(prefix)[\(index)]", transform)
        })
    default:
      return node
    }
  }

  mutating func otherKind(than node: RulesNode) -> RulesNode {
    let choices: [RulesNode] = [
      .object([("x", .int(1))]), .array([.int(1)]), .string("text"), .int(7), .bool(true), .double(2.5),
    ]
    let candidates = choices.filter { candidate in
      // A string where a string is wanted, or a whole number where an integer is: not a break.
      candidate.kind != node.kind && !(node.kind == 3 && candidate.kind == 5)
    }
    return random.pick(candidates)
  }

  /// Makes one case; returns its label and a description of a disagreement, if any.
  mutating func runCase() -> (String, String?) {
    let plist = random.oneIn(3)
    let format: TrackingRules.Format = plist ? .propertyList : .json
    let file = plist ? "fuzz.plist" : "fuzz.json"
    let (tree, rules) = document(plist: plist)
    var breaks = Break.allCases
    if plist { breaks.removeAll(where: \.jsonOnly) }
    if !sites.contains(where: \.isEventID) { breaks.removeAll { $0 == .emptyEventID } }
    if sites.count < 2 { breaks.removeAll { $0 == .wrongType } }
    let kind = random.pick(breaks)
    let label = "\(plist ? "plist" : "json") \(kind)"
    // Container tags spelled as an XML reader may meet them: whitespace or attributes after the name.
    let spelling = random.pick(["", " ", "\t", "\r", "\n", " id=\"x\"\r"])
    let closing = spelling.hasPrefix(" id") ? "\r" : spelling
    func serialize(_ node: RulesNode) -> Data {
      if plist {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">" + node.plist() + "</plist>"
        for name in ["dict", "array"] {
          text = text.replacingOccurrences(of: "<\(name)>", with: "<\(name)\(spelling)>")
            .replacingOccurrences(of: "</\(name)>", with: "</\(name)\(closing)>")
        }
        return Data(text.utf8)
      }
      return Data(node.json().utf8)
    }
    var expected: Result<TrackingRules, AutoTrackError> = .success(rules)
    var acceptAnyRulesError = false
    var data: Data
    switch kind {
    case .none:
      data = serialize(tree)
    case .wrongType:
      let site = random.pick(sites.filter { !$0.keyPath.isEmpty })
      var replaced: RulesNode?
      let broken = Self.replacing(tree, at: site.keyPath) { node in
        let other = otherKind(than: node)
        replaced = other
        return other
      }
      data = serialize(broken)
      // An object put where a string map is wanted is read as that map: only check the path then.
      if case .object = replaced, site.keyPath.hasSuffix(".actions") || site.keyPath.hasSuffix(".properties") {
        acceptAnyRulesError = true
      }
      expected = .failure(
        .rulesInvalid(file: file, defects: [Self.defect(site.keyPath, .wrongType(expected: "", found: ""))]))
    case .unknownKey:
      let site = random.pick(sites.filter(\.isStructObject))
      let key = "unknown_\(random.below(1000))"
      data = serialize(
        Self.replacing(tree, at: site.keyPath) { node in
          guard case .object(let members) = node else { return node }
          return .object(members + [(key, .int(1))])
        })
      expected = .failure(.rulesInvalid(file: file, defects: [Self.defect(site.keyPath, .unknownKey(key))]))
    case .duplicateKey:
      // A member of the root or of a fixed-key object given twice, with the same value.
      var chosen: (keyPath: String, key: String)?
      let candidates = [Site(keyPath: "")] + sites.filter(\.isStructObject)
      let site = random.pick(candidates)
      data = serialize(
        Self.replacing(tree, at: site.keyPath) { node in
          guard case .object(let members) = node, !members.isEmpty else { return node }
          let member = random.pick(members)
          chosen = (site.keyPath.isEmpty ? member.key : site.keyPath + "." + member.key, member.key)
          return .object(members + [member])
        })
      guard let chosen else {
        expected = .success(rules)
        break
      }
      expected = .failure(
        .rulesInvalid(
          file: file, defects: [Self.defect(chosen.keyPath, .duplicateKey(first: SourcePosition(line: 0, column: 0)))]
        ))
    case .emptyEventID:
      let site = random.pick(sites.filter(\.isEventID))
      data = serialize(Self.replacing(tree, at: site.keyPath) { _ in .string("") })
      // Only the first empty id in sorted screen order is reported; there is only one.
      expected = .failure(
        .rulesInvalid(
          file: file, defects: [Self.defect(site.keyPath, .invalidValue(reason: "an event id must not be empty"))]))
    case .debounceOutOfRange:
      let value = random.oneIn(2) ? -1 - random.below(1000) : 60_001 + random.below(100_000)
      guard case .object(var members) = tree else { return (label, "the root is not an object") }
      members.removeAll { $0.key == "debounceMs" }
      members.append(("debounceMs", .int(value)))
      data = serialize(.object(members))
      expected = .failure(
        .rulesInvalid(
          file: file, defects: [Self.defect("debounceMs", .invalidValue(reason: "must be between 0 and 60000 ms"))]))
    case .deepNesting:
      // Written out recursively, so kept to a few hundred levels (the 10,000-level documents are
      // RulesLoadingTests' own, built as flat text).
      let depth = TrackingRules.maximumNestingDepth + 1 + random.below(300)
      var nested: RulesNode = .int(1)
      for _ in 0..<depth { nested = .array([nested]) }
      guard case .object(let members) = tree else { return (label, "the root is not an object") }
      data = serialize(.object(members + [("deep", nested)]))
      let limit = TrackingRules.maximumNestingDepth
      expected = .failure(.rulesNestingTooDeep(file: file, depth: limit + 1, limit: limit))
    case .invalidUTF8:
      data = serialize(tree)
      // Insert before a character's first byte, so the bad byte is the first one.
      let starts = data.indices.filter { data[$0] & 0xC0 != 0x80 }
      let offset = random.pick(starts)
      data.insert(random.pick([0xFF, 0xC0, 0x80, 0xFE]), at: offset)
      expected = .failure(.rulesInvalidUTF8(file: file, byteOffset: offset))
    case .truncated:
      let full = serialize(tree)
      data = full.prefix(1 + random.below(full.count - 1))
      acceptAnyRulesError = true
      expected = .failure(.rulesInvalid(file: file, defects: [Self.defect("", .syntax(reason: ""))]))
    }
    let outcome: Result<TrackingRules, AutoTrackError>
    do {
      outcome = .success(try TrackingRules.decode(data, format: format, file: file))
    } catch {
      outcome = .failure(error)
    }
    // The same input gives the same answer: no hidden state changed by the first attempt.
    let again = Result { () throws(AutoTrackError) in try TrackingRules.decode(data, format: format, file: file) }
    let same: Bool
    switch (again, outcome) {
    case (.success(let a), .success(let b)): same = a == b
    case (.failure(let a), .failure(let b)): same = a == b
    default: same = false
    }
    if !same { return (label, "a second decode answered differently: \(again) vs \(outcome)") }
    return (label, Self.compare(outcome, expected, file: file, acceptAnyRulesError: acceptAnyRulesError))
  }

  /// An expected defect; its position is not compared, and a wrong type matches any wording.
  static func defect(_ keyPath: String, _ problem: RulesDefect.Problem) -> RulesDefect {
    RulesDefect(keyPath: keyPath, position: SourcePosition(line: 0, column: 0), problem: problem)
  }

  static func compare(
    _ outcome: Result<TrackingRules, AutoTrackError>, _ expected: Result<TrackingRules, AutoTrackError>,
    file: String, acceptAnyRulesError: Bool
  ) -> String? {
    switch (outcome, expected) {
    case (.success(let rules), .success(let wanted)):
      return rules == wanted ? nil : "decoded \(rules); expected \(wanted)"
    case (.success(let rules), .failure(let wanted)):
      return "decoded \(rules); expected \(wanted)"
    case (.failure(let error), .success):
      return "threw \(error); expected success"
    case (.failure(let error), .failure(let wanted)):
      if error.rulesFile != file { return "threw \(error), which does not name \(file)" }
      if acceptAnyRulesError { return nil }
      switch (error, wanted) {
      case (.rulesInvalid(_, let defects), .rulesInvalid(_, let wantedDefects)):
        // One break, one defect: at the broken place, and of the broken kind.
        guard defects.count == 1, let defect = defects.first, let want = wantedDefects.first,
          defect.keyPath == want.keyPath
        else { return "threw \(error); expected one defect at '\(wantedDefects.first?.keyPath ?? "")'" }
        if case .wrongType = want.problem { return nil }
        if case .duplicateKey = want.problem, case .duplicateKey = defect.problem { return nil }
        return defect.problem == want.problem ? nil : "threw \(error); expected \(want.problem)"
      default:
        return error == wanted ? nil : "threw \(error); expected \(wanted)"
      }
    }
  }
}
