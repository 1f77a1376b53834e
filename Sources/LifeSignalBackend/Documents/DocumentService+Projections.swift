import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// The original app's documents (``ProjectedPath``), answered from the tables the functions
/// keep, with the original rules where they were safe and tighter ones where they were not.
///
/// | path | read | write |
/// |---|---|---|
/// | `users/{uid}` | owner: everything; a contact: what the contact list shows | owner: whitelisted fields, through the profile service |
/// | `users/{uid}/contacts/{cid}`, `…/invitations/{id}` | owner | nobody (the contact functions) |
/// | `qr_lookup/{uid}` | owner; others by a `qrCodeId ==` query | nobody (`reset-qr-code`) |
///
/// The service key reads any of them; it writes a profile as its owner would.
extension DocumentService {
    /// Whether the document is projected from the tables, so its changes are not changes of
    /// the `documents` table: a listener follows ``projectionSources`` instead.
    public static func isProjected(_ path: DocumentPath) -> Bool { DocumentContract.isProjected(path) }

    /// Whether a query on the collection reads projected documents.
    public static func isProjected(_ collection: CollectionPath) -> Bool { DocumentContract.isProjected(collection) }

    /// The tables projected documents are read from: a change to any of them may change one.
    public static let projectionSources: Set<String> = ["users", "contacts", "alerts", "pings", "contact_invitations"]

    func projectedGet(_ caller: Caller, _ projected: ProjectedPath, _ path: DocumentPath) async throws -> DocumentSnapshot {
        let now = clock.now()
        return try await database.transaction { connection -> DocumentSnapshot in
            switch projected {
            case .profile(let uid):
                let me = try Self.reader(caller)
                guard let user = UserID(pathSegment: uid) else {
                    if me == nil { return .missing(path) }
                    throw DomainError.forbidden("users/\(uid) is not a person you know")
                }
                if me == nil || me == user { return try await ProfileDocument.load(user, in: connection) ?? .missing(path) }
                guard let me, let contact = try? await ContactQueries.summary(of: user, for: me, now: now, in: connection) else {
                    throw DomainError.forbidden("Only \(uid) and their contacts may read \(path)")
                }
                return DocumentSnapshot(path: path, data: ProfileDocument.contactView(contact))
            case .contact(let uid, _):
                let owner = try Self.owner(caller, ["users", uid])
                return try await ContactDocuments.contactDocuments(of: owner, now: now, in: connection).first { $0.path == path } ?? .missing(path)
            case .invitation(let uid, _):
                let owner = try Self.owner(caller, ["users", uid])
                return try await ContactDocuments.invitationDocuments(of: owner, in: connection).first { $0.path == path } ?? .missing(path)
            case .qrLookup(let uid):
                let me = try Self.reader(caller)
                guard me == nil || me?.description == uid else {
                    throw DomainError.forbidden("Only \(uid) reads \(path); find a code's owner with a query on qrCodeId")
                }
                guard let user = UserID(pathSegment: uid) else { return .missing(path) }
                return try await QRLookupDocuments.own(user, in: connection) ?? .missing(path)
            }
        }
    }

    func projectedQuery(_ caller: Caller, _ projected: ProjectedCollection, _ query: DocumentQuery) async throws -> [DocumentSnapshot] {
        let now = clock.now()
        let documents: [DocumentSnapshot] = try await database.transaction { connection in
            switch projected {
            case .contacts(let uid):
                return try await ContactDocuments.contactDocuments(of: try Self.owner(caller, ["users", uid]), now: now, in: connection)
            case .invitations(let uid):
                return try await ContactDocuments.invitationDocuments(of: try Self.owner(caller, ["users", uid]), in: connection)
            case .qrLookup:
                _ = try Self.reader(caller)
                guard let code = UUID(uuidString: try QRLookupDocuments.code(in: query)) else { return [] }
                return try await QRLookupDocuments.owner(of: code, now: now, in: connection).map { [$0] } ?? []
            }
        }
        guard case .qrLookup = projected else { return query.evaluate(documents) }
        return QRLookupDocuments.caseInsensitive(query).evaluate(documents)
    }

    /// A write to a projected path: only the owner's whitelisted profile fields, through the
    /// profile service; `replace` (a set without merge) is refused, as is every other path.
    func projectedWrite(
        _ caller: Caller, _ projected: ProjectedPath, _ path: DocumentPath, fields: [String: DocumentValue]?
    ) async throws -> DocumentSnapshot {
        guard case .profile(let uid) = projected else {
            switch projected {
            case .contact, .invitation:
                throw DomainError.forbidden("\(path) is read-only: contacts and invitations change through the contact functions")
            default:
                throw DomainError.forbidden("\(path) is read-only: a QR code changes through reset-qr-code")
            }
        }
        let owner = try Self.owner(caller, ["users", uid])
        guard let fields else {
            throw DomainError.forbidden("\(path) cannot be replaced or deleted: update or merge the fields an owner may change")
        }
        let change = try ProfileDocumentChange(fields, path: path)
        let asOwner = Caller.user(owner)
        let current = try await profiles.profile(caller: asOwner)
        try change.validate(against: current)
        // Settings first: they are the write that can still fail on a rule (the lead against
        // the interval), and both were checked above, so a refusal leaves neither written.
        if change.changesSettings {
            _ = try await profiles.updateCheckInSettings(
                caller: asOwner, interval: change.interval, reminderLead: change.reminderLead(from: current.reminderLead))
        }
        if change.changesProfile { _ = try await profiles.update(caller: asOwner, change.profile) }
        return try await get(caller: caller, path: path)
    }

    /// The signed-in reader (`nil` for the service key); signed out is unauthenticated.
    static func reader(_ caller: Caller) throws(DomainError) -> UserID? {
        switch caller {
        case .anonymous: throw .unauthenticated
        case .user(let id): return id
        case .service: return nil
        }
    }
}
