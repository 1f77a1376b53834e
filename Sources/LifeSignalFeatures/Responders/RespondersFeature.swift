import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The Responders screen: the people who look out for me, those whose ping waits for my
/// answer first; a badge counting those pings; answer one, or all after a confirmation.
public struct RespondersFeature: Reducer {
    public struct State: Equatable, Sendable {
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

        /// Pinging responders first, oldest ping first; then the rest by name.
        public var ordered: [ContactSummary] {
            contacts.sorted { lhs, rhs in
                switch (lhs.incomingPingAt, rhs.incomingPingAt) {
                case (let left?, let right?) where left != right: return left < right
                case (_?, nil): return true
                case (nil, _?): return false
                default:
                    let order = lhs.name.localizedCaseInsensitiveCompare(rhs.name)
                    return order == .orderedSame ? lhs.id.description < rhs.id.description : order == .orderedAscending
                }
            }
        }

        /// Pings waiting for my answer.
        public var badge: Int { contacts.filter { $0.incomingPingAt != nil }.count }
    }

    public enum Action: Equatable, Sendable {
        case task
        case loaded(Result<ContactList, DomainError>)
        case respondTapped(UserID)
        case respondToAllTapped
        case respondToAllConfirmed
        case respondToAllCancelled
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
            state.contacts = list.contacts.filter(\.roles.isResponder)
            return .none

        case .loaded(.failure(let error)):
            state.isLoading = false
            state.errorMessage = error.message
            return .none

        case .respondTapped(let id):
            state.errorMessage = nil
            return .run { [pings] send in
                await send(
                    .responded(
                        Result {
                            try await pings.respond(id)
                            return 1
                        }.mapError(DomainError.init)))
            }

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
            return .run { [pings] send in
                await send(.responded(Result { try await pings.respondToAll() }.mapError(DomainError.init)))
            }

        case .responded(.success):
            return load(&state)

        case .responded(.failure(let error)):
            state.errorMessage = error.message
            return load(&state)
        }
    }

    private func load(_ state: inout State) -> Effect<Action> {
        state.isLoading = true
        return .loadContactList(from: contacts, cancelID: CancelID.load, Action.loaded)
    }
}
