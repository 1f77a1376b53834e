import Foundation
import LifeSignalDomain

/// What a client of the document functions needs to know of the backend's documents: the
/// table Realtime reports their changes on, and which paths are projections of other tables
/// (their deletions are not reported as document rows, so a listener polls them).
public enum DocumentContract {
    public static let table = "documents"
    public static let qrLookupCollection = "qr_lookup"
    public static let contactsCollection = "contacts"
    public static let invitationsCollection = "invitations"

    /// Whether the backend answers the path from its own tables (``ProjectedPath``).
    public static func isProjected(_ path: DocumentPath) -> Bool { ProjectedPath(path) != nil }

    /// Whether a query on the collection reads projected documents.
    public static func isProjected(_ collection: CollectionPath) -> Bool { ProjectedCollection(collection) != nil }
}

/// The document paths the backend answers from its own tables instead of the `documents`
/// table: the original app's Firestore model, so a Firestore client reads a person, their
/// contacts and QR codes where it always did.
///
/// - `users/{uid}`: the profile (``ProfileDocument``);
/// - `users/{uid}/contacts/{cid}`: one per contact relation (``ContactDocuments``);
/// - `users/{uid}/invitations/{id}`: pending phone invitations, sent and received — not in
///   the original app, which had none; the contact list needs them, so a client reading
///   documents needs no function for them either;
/// - `qr_lookup/{uid}`: a QR code's owner (``QRLookupDocuments``).
///
/// These paths are reserved: nothing is stored there. Documents a client stored at them
/// before (migration 120 accepted any path under `users/{uid}/…`) stay in the table but are
/// shadowed — never read, written or listed again through the document functions — and go
/// with the account as before; their owner still sees those rows in `/rest/v1/documents`
/// (read-only there), which is harmless and keeps migration 120 as it shipped.
/// Paths below a projected document (`users/{uid}/contacts/{cid}/notes/…`) are stored ones.
package enum ProjectedPath: Equatable {
    case profile(String)
    case contact(owner: String, contact: String)
    case invitation(owner: String, id: String)
    case qrLookup(String)

    package init?(_ path: DocumentPath) {
        switch path.segments.count {
        case 2 where path.segments[0] == "users": self = .profile(path.segments[1])
        case 2 where path.segments[0] == DocumentContract.qrLookupCollection: self = .qrLookup(path.segments[1])
        case 4 where path.segments[0] == "users" && path.segments[2] == DocumentContract.contactsCollection:
            self = .contact(owner: path.segments[1], contact: path.segments[3])
        case 4 where path.segments[0] == "users" && path.segments[2] == DocumentContract.invitationsCollection:
            self = .invitation(owner: path.segments[1], id: path.segments[3])
        default: return nil
        }
    }
}

/// The projected collections a query may run on.
package enum ProjectedCollection: Equatable {
    case contacts(owner: String)
    case invitations(owner: String)
    case qrLookup

    package init?(_ collection: CollectionPath) {
        let segments = collection.segments
        switch segments.count {
        case 1 where segments[0] == DocumentContract.qrLookupCollection: self = .qrLookup
        case 3 where segments[0] == "users" && segments[2] == DocumentContract.contactsCollection: self = .contacts(owner: segments[1])
        case 3 where segments[0] == "users" && segments[2] == DocumentContract.invitationsCollection: self = .invitations(owner: segments[1])
        default: return nil
        }
    }
}

extension UserID {
    /// The user a document path's `{uid}` names, if it is one (ids are lower-case UUIDs).
    package init?(pathSegment text: String) {
        guard let id = UUID(uuidString: text), id.uuidString.lowercased() == text else { return nil }
        self.init(id)
    }
}

extension DocumentValue {
    /// A time as a document keeps it (to the microsecond), or `null`.
    public static func time(_ date: Date?) -> DocumentValue {
        date.map { .timestamp(DocumentTimestamp.truncated($0)) } ?? .null
    }

    public static func text(_ text: String?) -> DocumentValue { text.map(DocumentValue.string) ?? .null }
}
