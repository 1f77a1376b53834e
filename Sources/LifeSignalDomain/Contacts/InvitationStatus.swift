/// Where a phone invitation stands. Only a pending one can be accepted or declined.
public enum InvitationStatus: String, Hashable, Codable, Sendable, CaseIterable {
    case pending
    case accepted
    case declined
}
