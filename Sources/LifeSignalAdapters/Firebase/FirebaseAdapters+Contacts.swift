import FirebaseREST
import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain

extension FirebaseAdapters {
    /// Contacts through the same functions as on Supabase, called as Firebase callables
    /// (``FunctionCalling``); the stream polls the list (``contactListChanges()``).
    public var contactsClient: ContactsClient { functionContactsClient }

    /// The signed-in person's id, from the token's uid.
    func me() async throws -> UserID {
        guard let uid = await tokens.currentTokens?.localId else { throw DomainError.unauthenticated }
        guard let id = UserID(string: uid) else { throw DomainError.internal("The account id \"\(uid)\" is not a LifeSignal user id") }
        return id
    }
}

extension FirebaseAdapters: FunctionCalling {
    /// `get-contacts` asked again every ``pollInterval``; a list is delivered when it differs
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
