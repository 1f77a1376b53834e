import Foundation
import LifeSignalClients
import LifeSignalDomain

/// Role requests on the Contacts screen: a contact asks to become my responder and waits for my
/// answer, or I asked to become theirs and may withdraw it. One answer at a time, as for
/// invitations, so a double tap cannot answer twice; the list is reloaded after each, since
/// accepting changes a contact's roles too.
extension ContactsFeature {
    func reduceRoleRequest(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .acceptRoleRequestTapped(let id):
            guard state.answeringRoleRequestID == nil, state.receivedRoleRequests.contains(where: { $0.id == id }) else { return .none }
            return answer(&state, id) { [client] in _ = try await client.acceptRoleRequest(id) }

        case .declineRoleRequestTapped(let id):
            guard state.answeringRoleRequestID == nil, state.receivedRoleRequests.contains(where: { $0.id == id }) else { return .none }
            return answer(&state, id) { [client] in try await client.declineRoleRequest(id) }

        case .cancelRoleRequestTapped(let id):
            guard state.answeringRoleRequestID == nil, state.sentRoleRequests.contains(where: { $0.id == id }) else { return .none }
            return answer(&state, id) { [client] in try await client.cancelRoleRequest(id) }

        case .roleRequestAnswered(.success):
            state.answeringRoleRequestID = nil
            return load(&state)

        case .roleRequestAnswered(.failure(let error)):
            state.answeringRoleRequestID = nil
            state.errorMessage = error.message
            // The request may have been answered or withdrawn on the other side meanwhile:
            // the list says how things stand now.
            return load(&state)

        case .noticeDismissed:
            state.notice = nil
            return .none

        default:
            return .none
        }
    }

    private func answer(_ state: inout State, _ id: UUID, _ operation: @escaping @Sendable () async throws -> Void) -> Effect<Action> {
        state.answeringRoleRequestID = id
        state.errorMessage = nil
        state.notice = nil
        return .run { send in
            await send(
                .roleRequestAnswered(
                    Result {
                        try await operation()
                        return id
                    }.mapError(DomainError.init)))
        }
    }
}
