/// Where an SOS alert stands: raised and not yet cancelled, or over.
public enum AlertStatus: String, Hashable, Codable, Sendable, CaseIterable {
    case active
    case resolved
}
