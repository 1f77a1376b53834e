import LifeSignalClients
import LifeSignalDomain

extension Effect {
    /// Fetches my contact list and sends the outcome back as an action.
    ///
    /// Every contact screen (Responders, Dependents, Pings) acts on a contact and then reloads
    /// the whole list rather than patching it, because the server's answer also carries what
    /// the action changed on the other side (a ping answered, a deadline moved). A reload that
    /// starts cancels the one still in flight under `cancelID`, so after two quick taps the
    /// older list can never land last and undo the newer one.
    ///
    /// - Parameters:
    ///   - client: The contacts client, read from the reducer's dependencies.
    ///   - cancelID: The feature's id for its list load.
    ///   - loaded: Wraps the outcome in the feature's action; any error the client throws
    ///     arrives as a ``DomainError``.
    static func loadContactList(
        from client: ContactsClient,
        cancelID: some Hashable & Sendable,
        _ loaded: @escaping @Sendable (Result<ContactList, DomainError>) -> Action
    ) -> Self {
        .run { send in
            await send(loaded(Result { try await client.contacts() }.mapError(DomainError.init)))
        }
        .cancellable(id: cancelID, cancelInFlight: true)
    }
}
