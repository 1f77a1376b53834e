/// Where a responder's ping stands. A ping stays pending until the dependent answers or the
/// sender clears it; there is no expiry, so a worried responder's question is never dropped.
public enum PingStatus: String, Hashable, Codable, Sendable, CaseIterable {
    case pending
    case responded
    case cancelled
}
