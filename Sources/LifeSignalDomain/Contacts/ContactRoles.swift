import Foundation

/// A role one person holds for another.
public enum ContactRole: String, Hashable, Codable, Sendable, CaseIterable {
    /// Looks out for me: is told when I miss a check-in or raise an alert, and may ping me.
    case responder
    /// Someone I look out for.
    case dependent
}

/// The roles a contact holds for me, always at least one.
///
/// A relation is stored twice, once from each side, and the two halves are mirror images: if
/// you are my responder I am your dependent. ``reciprocal`` gives the other side's roles so
/// both halves are always written from one value and cannot drift apart.
public struct ContactRoles: Hashable, Sendable {
    public let isResponder: Bool
    public let isDependent: Bool

    /// Refuses a relation with no role: to drop both roles a person removes the contact, which
    /// removes both sides, rather than keeping an empty link that means nothing.
    public init(isResponder: Bool, isDependent: Bool) throws(DomainError) {
        guard isResponder || isDependent else {
            throw .invalidArgument("A contact needs at least one role (responder, dependent or both); remove the contact instead")
        }
        self.isResponder = isResponder
        self.isDependent = isDependent
    }

    /// Parses role names as the seeds send them (`["responder", "dependent"]`).
    public init(names: [String]) throws(DomainError) {
        var roles = Set<ContactRole>()
        for name in names {
            guard let role = ContactRole(rawValue: name) else {
                throw .invalidArgument("Unknown contact role \"\(name)\"; use \"responder\" or \"dependent\"")
            }
            roles.insert(role)
        }
        try self.init(isResponder: roles.contains(.responder), isDependent: roles.contains(.dependent))
    }

    private init(unchecked isResponder: Bool, _ isDependent: Bool) {
        self.isResponder = isResponder
        self.isDependent = isDependent
    }

    /// The same relation seen from the contact's side.
    public var reciprocal: ContactRoles { ContactRoles(unchecked: isDependent, isResponder) }

    /// Role names in a stable order, for the wire.
    public var names: [String] {
        (isResponder ? [ContactRole.responder.rawValue] : []) + (isDependent ? [ContactRole.dependent.rawValue] : [])
    }

    public static let responder = ContactRoles(unchecked: true, false)
    public static let dependent = ContactRoles(unchecked: false, true)
    public static let both = ContactRoles(unchecked: true, true)
}
