import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// An XMLParser delegate that implements every callback and writes each down as one line, with
/// its arguments: the app's own delegate, set on the parser directly or behind a proxy.
final class XMLEventRecorder: XMLParserDelegate {
  private(set) var events: [String] = []

  func parserDidStartDocument(_ parser: XMLParser) { events.append("startDocument") }
  func parserDidEndDocument(_ parser: XMLParser) { events.append("endDocument") }
  func parser(
    _ parser: XMLParser, foundNotationDeclarationWithName name: String, publicID: String?, systemID: String?
  ) {
    events.append("notation \(name) \(publicID ?? "-") \(systemID ?? "-")")
  }
  func parser(
    _ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?, systemID: String?,
    notationName: String?
  ) {
    events.append("unparsedEntity \(name) \(notationName ?? "-")")
  }
  func parser(
    _ parser: XMLParser, foundAttributeDeclarationWithName attributeName: String, forElement elementName: String,
    type: String?, defaultValue: String?
  ) {
    events.append("attributeDeclaration \(attributeName) \(elementName)")
  }
  func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
    events.append("elementDeclaration \(elementName) \(model)")
  }
  func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
    events.append("internalEntity \(name) \(value ?? "-")")
  }
  func parser(
    _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?
  ) {
    events.append("externalEntity \(name)")
  }
  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
    attributes attributeDict: [String: String]
  ) {
    let attributes = attributeDict.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    events.append("start \(elementName) ns=\(namespaceURI ?? "-") q=\(qName ?? "-") \(attributes)")
  }
  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
  ) {
    events.append("end \(elementName) ns=\(namespaceURI ?? "-") q=\(qName ?? "-")")
  }
  func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
    events.append("startMapping \(prefix)=\(namespaceURI)")
  }
  func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String) { events.append("endMapping \(prefix)") }
  func parser(_ parser: XMLParser, foundCharacters string: String) {
    let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
    if !trimmed.isEmpty { events.append("characters \(trimmed)") }
  }
  func parser(_ parser: XMLParser, foundIgnorableWhitespace whitespaceString: String) {
    events.append("ignorableWhitespace \(whitespaceString.count)")
  }
  func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
    events.append("processingInstruction \(target) \(data ?? "-")")
  }
  func parser(_ parser: XMLParser, foundComment comment: String) { events.append("comment \(comment)") }
  func parser(_ parser: XMLParser, foundCDATA cdataBlock: Data) {
    events.append("cdata \(String(decoding: cdataBlock, as: UTF8.self))")
  }
  func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
    events.append("resolveExternalEntity \(name)")
    return nil
  }
  func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
    events.append("parseError \((parseError as NSError).code)")
  }
  func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {
    events.append("validationError \((validationError as NSError).code)")
  }
}
