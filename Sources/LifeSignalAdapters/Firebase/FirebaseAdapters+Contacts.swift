import FirebaseREST
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension FirebaseAdapters {
    /// Contacts as the original app kept them: the list is read from Firestore
    /// (`users/{uid}/contacts`, one document per relation with the contact's name and
    /// check-in joined in, and LifeSignal's `users/{uid}/invitations`), a QR code is looked
    /// up with a query on `qr_lookup` (`qrCodeId ==` the code, limit 1). Every change — add
    /// by QR, invite, accept or decline, roles, remove, a new QR code — goes through the same
    /// functions as on Supabase, called as Firebase callables (``FunctionCalling``), as the
    /// original's did. The stream polls the list (``contactListChanges()``).
    public var contactsClient: ContactsClient { functionContactsClient }

    /// The signed-in person's id, from the token's uid.
    func me() async throws -> UserID {
        guard let uid = await tokens.currentTokens?.localId else { throw DomainError.unauthenticated }
        guard let id = UserID(string: uid) else { throw DomainError.internal("The account id \"\(uid)\" is not a LifeSignal user id") }
        return id
    }
}

extension FirebaseAdapters: FunctionCalling {
    /// The contact list from two queries: contacts by the time they were added (then id, as
    /// `get-contacts` orders them), invitations by the time they were sent; role requests,
    /// which the original app's documents have no place for, from `get-contacts`.
    func contactList() async throws -> ContactList {
        let (contactDocuments, invitationDocuments) = try await asSignedIn { firestore, me in
            let parent = "users/\(me)"
            return (
                try await Self.runQuery(FirestoreQuery(collection: "contacts").order(by: "addedAt"), parent: parent, on: firestore),
                try await Self.runQuery(FirestoreQuery(collection: "invitations").order(by: "sentAt"), parent: parent, on: firestore)
            )
        }
        let requests = try await functionContactList()
        let invitations = try invitationDocuments.map(FirestorePeopleMapping.invitation)
        return ContactList(
            contacts: try contactDocuments.map(FirestorePeopleMapping.contact),
            sentInvitations: invitations.filter(\.sent).map(\.0),
            receivedInvitations: invitations.filter { !$0.sent }.map(\.0),
            receivedRoleRequests: requests.receivedRoleRequests, sentRoleRequests: requests.sentRoleRequests)
    }

    /// The owner of a code: the one `qr_lookup` document whose `qrCodeId` is the code.
    func lookUpQRCode(_ code: UUID) async throws -> QRCodeOwner {
        let query = FirestoreQuery(collection: "qr_lookup").where("qrCodeId", .equal, .string(code.uuidString.lowercased())).limit(1)
        let found = try await asSignedIn { firestore, _ in try await Self.runQuery(query, parent: nil, on: firestore) }
        guard let document = found.first else { throw DomainError.notFound("QR code") }
        return try FirestorePeopleMapping.qrCodeOwner(document)
    }

    /// `:runQuery` with the answers as domain documents.
    private static func runQuery(_ query: FirestoreQuery, parent: String?, on firestore: FirestoreClient) async throws -> [DocumentSnapshot] {
        let documents = try await documents(parent.map { "\($0)/\(query.collectionID)" } ?? query.collectionID) {
            try await firestore.runQuery(query, parent: parent)
        }
        return try documents.map(FirestoreDocumentMapping.snapshot)
    }

    /// The list asked again every ``pollInterval``; a list is delivered when it differs
    /// from the one before.
    func contactListChanges() async throws -> AsyncThrowingStream<ContactList, any Error> {
        let adapters = self
        let current = try await contactList()
        return polling(from: current) { last in
            let list = try await adapters.contactList()
            return (list, list == last ? [] : [list])
        }
    }
}
