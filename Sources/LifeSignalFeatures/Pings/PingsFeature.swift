import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The Pings screen: every "Are you OK?" still waiting, both ways. The pings I sent to my
/// dependents, which I may withdraw; the pings my responders sent me, which I answer one at a
/// time or all at once after a confirmation; and my dependents without a pending ping, to
/// ping one.
///
/// There is no ping list on the server: a pending ping is a mark on the contact
/// (``ContactSummary/outgoingPingAt``, ``ContactSummary/incomingPingAt``), so the screen is
/// derived from the contact list and every action reloads that list.
public struct PingsFeature: Reducer {
    public struct State: Equatable, Sendable {
        /// My whole contact list; the sections below are derived from it, so they can never
        /// disagree with one another.
        public var contacts: [ContactSummary]
        public var isLoading: Bool
        /// "Answer all pings?" is showing.
        public var isConfirmingRespondAll: Bool
        public var errorMessage: String?

        public init(contacts: [ContactSummary] = [], isLoading: Bool = false, isConfirmingRespondAll: Bool = false, errorMessage: String? = nil) {
            self.contacts = contacts
            self.isLoading = isLoading
            self.isConfirmingRespondAll = isConfirmingRespondAll
            self.errorMessage = errorMessage
        }

        /// Dependents I pinged who have not answered, oldest ping first: the longest silence
        /// is the most worrying.
        public var sent: [ContactSummary] {
            Self.oldestFirst(contacts.filter { $0.roles.isDependent && $0.outgoingPingAt != nil }, by: \.outgoingPingAt)
        }

        /// Responders waiting for my answer, oldest ping first: they have worried longest.
        public var received: [ContactSummary] {
            Self.oldestFirst(contacts.filter { $0.roles.isResponder && $0.incomingPingAt != nil }, by: \.incomingPingAt)
        }

        /// Dependents I could ping now (no ping of mine pending), by name.
        public var pingable: [ContactSummary] {
            contacts.filter { $0.roles.isDependent && $0.outgoingPingAt == nil }.sorted(by: Self.byName)
        }

        /// Pings waiting for my answer.
        public var badge: Int { received.count }

        static func oldestFirst(_ contacts: [ContactSummary], by pingAt: KeyPath<ContactSummary, Date?>) -> [ContactSummary] {
            contacts.sorted { lhs, rhs in
                switch (lhs[keyPath: pingAt], rhs[keyPath: pingAt]) {
                case (let left?, let right?) where left != right: left < right
                default: byName(lhs, rhs)
                }
            }
        }

        /// Case-insensitive, then by id so that two people with the same name keep one order.
        static func byName(_ lhs: ContactSummary, _ rhs: ContactSummary) -> Bool {
            let order = lhs.name.localizedCaseInsensitiveCompare(rhs.name)
            return order == .orderedSame ? lhs.id.description < rhs.id.description : order == .orderedAscending
        }
    }

    public enum Action: Equatable, Sendable {
        case task
        case loaded(Result<ContactList, DomainError>)
        case pingTapped(UserID)
        /// Withdraw my pending ping to this dependent.
        case withdrawTapped(UserID)
        /// Answer this responder's ping.
        case respondTapped(UserID)
        case respondToAllTapped
        case respondToAllConfirmed
        case respondToAllCancelled
        /// The new ping's id.
        case pinged(Result<UUID, DomainError>)
        /// The dependent whose ping was withdrawn.
        case withdrawn(Result<UserID, DomainError>)
        /// How many pings were answered.
        case responded(Result<Int, DomainError>)
    }

    enum CancelID { case load }

    @Dependency(\.contactsClient) var contacts
    @Dependency(\.pingClient) var pings

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task:
            return load(&state)

        case .loaded(.success(let list)):
            state.isLoading = false
            state.contacts = list.contacts
            return .none

        case .loaded(.failure(let error)):
            state.isLoading = false
            state.errorMessage = error.message
            return .none

        case .pingTapped(let id):
            state.errorMessage = nil
            return call({ [pings] in try await pings.ping(id) }, then: { .pinged($0) })

        case .withdrawTapped(let id):
            state.errorMessage = nil
            return call(
                { [pings] in
                    try await pings.clear(id)
                    return id
                }, then: { .withdrawn($0) })

        case .respondTapped(let id):
            state.errorMessage = nil
            return call(
                { [pings] in
                    try await pings.respond(id)
                    return 1
                }, then: { .responded($0) })

        case .respondToAllTapped:
            // Nothing to confirm when nobody is waiting.
            guard state.badge > 0 else { return .none }
            state.isConfirmingRespondAll = true
            return .none

        case .respondToAllCancelled:
            state.isConfirmingRespondAll = false
            return .none

        case .respondToAllConfirmed:
            guard state.isConfirmingRespondAll else { return .none }
            state.isConfirmingRespondAll = false
            state.errorMessage = nil
            return call({ [pings] in try await pings.respondToAll() }, then: { .responded($0) })

        case .pinged(.success), .withdrawn(.success), .responded(.success):
            return load(&state)

        case .pinged(.failure(let error)), .withdrawn(.failure(let error)), .responded(.failure(let error)):
            state.errorMessage = error.message
            return .none
        }
    }

    private func load(_ state: inout State) -> Effect<Action> {
        state.isLoading = true
        return .loadContactList(from: contacts, cancelID: CancelID.load) { .loaded($0) }
    }

    /// Runs one ping call and sends its outcome, failures included, as an action.
    private func call<Value: Sendable>(
        _ work: @escaping @Sendable () async throws -> Value,
        then toAction: @escaping @Sendable (Result<Value, DomainError>) -> Action
    ) -> Effect<Action> {
        .run { send in
            await send(toAction(Result { try await work() }.mapError(DomainError.init)))
        }
    }
}
