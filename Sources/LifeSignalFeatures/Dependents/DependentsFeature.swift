import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The Dependents screen: the people I look out for, grouped by urgency (alert, missed
/// deadline, pinged, others) and sorted by time left, name or date added; a badge counting
/// those who need me; ping, withdraw a ping, answer an alert ("I'm on it") and mark a
/// dependent safe, which ends their incident (an SOS or a missed check-in) with the all-clear.
public struct DependentsFeature: Reducer {
    public struct State: Equatable, Sendable {
        public var contacts: [ContactSummary]
        public var sort: DependentSort
        /// When the list was last loaded: what urgency is judged against.
        public var now: Date
        public var isLoading: Bool
        public var errorMessage: String?

        public init(
            contacts: [ContactSummary] = [], sort: DependentSort = .timeLeft, now: Date = Date(timeIntervalSince1970: 0),
            isLoading: Bool = false, errorMessage: String? = nil
        ) {
            self.contacts = contacts
            self.sort = sort
            self.now = now
            self.isLoading = isLoading
            self.errorMessage = errorMessage
        }

        /// Derived, so it can never disagree with the contacts.
        public var groups: [(DependentGroup, [ContactSummary])] { DependentGrouping.groups(contacts, at: now, sort: sort) }
        public var badge: Int { DependentGrouping.badge(contacts, at: now) }
    }

    public enum Action: Equatable, Sendable {
        case task
        case loaded(Result<ContactList, DomainError>)
        case sortChanged(DependentSort)
        case pingTapped(UserID)
        case clearPingTapped(UserID)
        case respondToAlertTapped(UUID)
        /// "They're safe": ends the incident for everyone told.
        case markSafeTapped(UUID)
        /// A ping, withdrawal, alert answer or all-clear finished; the list is reloaded either way.
        case actionFinished(Result<Bool, DomainError>)
    }

    enum CancelID { case load }

    @Dependency(\.contactsClient) var contacts
    @Dependency(\.pingClient) var pings
    @Dependency(\.alertClient) var alerts
    @Dependency(\.date) var date

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task:
            return load(&state)

        case .loaded(.success(let list)):
            state.isLoading = false
            state.contacts = list.contacts.filter(\.roles.isDependent)
            return .none

        case .loaded(.failure(let error)):
            state.isLoading = false
            state.errorMessage = error.message
            return .none

        case .sortChanged(let sort):
            state.sort = sort
            return .none

        case .pingTapped(let id):
            state.errorMessage = nil
            return perform { [pings] in _ = try await pings.ping(id) }

        case .clearPingTapped(let id):
            state.errorMessage = nil
            return perform { [pings] in try await pings.clear(id) }

        case .respondToAlertTapped(let alertID):
            state.errorMessage = nil
            return perform { [alerts] in _ = try await alerts.respond(alertID) }

        case .markSafeTapped(let alertID):
            state.errorMessage = nil
            return perform { [alerts] in _ = try await alerts.markSafe(alertID) }

        case .actionFinished(.success):
            return load(&state)

        case .actionFinished(.failure(let error)):
            state.errorMessage = error.message
            return load(&state)
        }
    }

    private func load(_ state: inout State) -> Effect<Action> {
        state.isLoading = true
        state.now = date.now
        return .loadContactList(from: contacts, cancelID: CancelID.load, Action.loaded)
    }

    private func perform(_ work: @escaping @Sendable () async throws -> Void) -> Effect<Action> {
        .run { send in
            await send(
                .actionFinished(
                    Result {
                        try await work()
                        return true
                    }.mapError(DomainError.init)))
        }
    }
}
