import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The Contacts screen: everyone I am linked with and the invitations and role requests both
/// ways; add someone by their QR code, invite a phone number, answer invitations and role
/// requests, change roles or remove a contact after a confirmation.
///
/// Becoming a contact's responder opens their check-ins and alerts, so it waits for their
/// consent: such a role change comes back as a pending request, shown as
/// ``State/notice`` ("Request sent, waiting for …") and in ``State/sentRoleRequests``.
///
/// Input is checked here (a QR code must be a UUID, a phone number E.164, a role must be
/// picked) so a typo is explained at once instead of costing a request. A failed request only
/// sets ``State/errorMessage``: what the person typed and chose stays, ready to fix and retry.
/// After every change the whole list is reloaded rather than patched, since a link has two
/// sides and the server is the only one that knows both.
public struct ContactsFeature: Reducer {
    public enum Action: Equatable, Sendable {
        case task
        case loaded(Result<ContactList, DomainError>)
        case errorDismissed

        case addByQRCodeTapped
        case qrCodeTextChanged(String)
        case lookUpQRCodeTapped
        case qrCodeLookedUp(Result<QRCodeFlow.Match, DomainError>)
        case qrCodeRolesChanged(ContactRoles)
        case addByQRCodeConfirmed
        case addedByQRCode(Result<ContactSummary, DomainError>)
        case addByQRCodeCancelled

        case invitePhoneChanged(String)
        case inviteRolesChanged(ContactRoles)
        case inviteTapped
        case invited(Result<InvitationSummary, DomainError>)

        case acceptInvitationTapped(UUID)
        case declineInvitationTapped(UUID)
        case invitationAnswered(Result<UUID, DomainError>)

        /// New roles picked for a contact; they wait for ``changeConfirmed``.
        case rolesTapped(UserID, ContactRoles)
        case removeTapped(UserID)
        case changeConfirmed
        case changeCancelled
        case changeApplied(Result<AppliedChange, DomainError>)

        case acceptRoleRequestTapped(UUID)
        case declineRoleRequestTapped(UUID)
        /// Withdraws a request I sent.
        case cancelRoleRequestTapped(UUID)
        case roleRequestAnswered(Result<UUID, DomainError>)
        case noticeDismissed
    }

    enum CancelID { case load, lookUp }

    @Dependency(\.contactsClient) var client

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task:
            return load(&state)

        case .loaded(.success(let list)):
            state.isLoading = false
            state.contacts = list.contacts
            state.sentInvitations = list.sentInvitations
            state.receivedInvitations = list.receivedInvitations
            state.receivedRoleRequests = list.receivedRoleRequests
            state.sentRoleRequests = list.sentRoleRequests
            return .none

        case .loaded(.failure(let error)):
            state.isLoading = false
            state.errorMessage = error.message
            return .none

        case .errorDismissed:
            state.errorMessage = nil
            return .none

        case .addByQRCodeTapped,
            .qrCodeTextChanged,
            .lookUpQRCodeTapped,
            .qrCodeLookedUp,
            .qrCodeRolesChanged,
            .addByQRCodeConfirmed,
            .addedByQRCode,
            .addByQRCodeCancelled:
            return reduceQRCode(into: &state, action: action)

        case .invitePhoneChanged(let text):
            state.invitePhoneText = text
            return .none

        case .inviteRolesChanged(let roles):
            state.inviteRoles = roles
            return .none

        case .inviteTapped:
            guard !state.isInviting else { return .none }
            let phone: PhoneNumber
            do {
                phone = try PhoneNumber(state.invitePhoneText)
            } catch {
                state.errorMessage = error.message
                return .none
            }
            guard let roles = state.inviteRoles else {
                state.errorMessage = Refusal.chooseRoles
                return .none
            }
            state.isInviting = true
            state.errorMessage = nil
            return .run { [client] send in
                await send(.invited(Result { try await client.invite(phone, roles) }.mapError(DomainError.init)))
            }

        case .invited(.success):
            state.isInviting = false
            state.invitePhoneText = ""
            state.inviteRoles = nil
            return load(&state)

        case .invited(.failure(let error)):
            state.isInviting = false
            state.errorMessage = error.message
            return .none

        case .acceptInvitationTapped(let id):
            guard state.answeringInvitationID == nil else { return .none }
            state.answeringInvitationID = id
            state.errorMessage = nil
            return .run { [client] send in
                await send(
                    .invitationAnswered(
                        Result {
                            _ = try await client.acceptInvitation(id)
                            return id
                        }.mapError(DomainError.init)))
            }

        case .declineInvitationTapped(let id):
            guard state.answeringInvitationID == nil else { return .none }
            state.answeringInvitationID = id
            state.errorMessage = nil
            return .run { [client] send in
                await send(
                    .invitationAnswered(
                        Result {
                            try await client.declineInvitation(id)
                            return id
                        }.mapError(DomainError.init)))
            }

        case .invitationAnswered(.success):
            state.answeringInvitationID = nil
            return load(&state)

        case .invitationAnswered(.failure(let error)):
            state.answeringInvitationID = nil
            state.errorMessage = error.message
            return .none

        case .rolesTapped(let id, let roles):
            // Picking the roles a contact already has changes nothing, so asks nothing.
            guard !state.isApplyingChange,
                let contact = state.contacts.first(where: { $0.id == id }), contact.roles != roles
            else { return .none }
            state.pendingChange = .roles(id, roles)
            return .none

        case .removeTapped(let id):
            guard !state.isApplyingChange, state.contacts.contains(where: { $0.id == id }) else { return .none }
            state.pendingChange = .removal(id)
            return .none

        case .changeCancelled:
            // Once confirmed the request is out; the dialog waits for its answer.
            guard !state.isApplyingChange else { return .none }
            state.pendingChange = nil
            return .none

        case .changeConfirmed:
            guard !state.isApplyingChange, let change = state.pendingChange else { return .none }
            state.isApplyingChange = true
            state.errorMessage = nil
            state.notice = nil
            return .run { [client] send in
                await send(
                    .changeApplied(
                        Result { () async throws -> AppliedChange in
                            switch change {
                            case .roles(let id, let roles): return .roles(try await client.updateRoles(id, roles))
                            case .removal(let id):
                                try await client.remove(id)
                                return .removal(id)
                            }
                        }.mapError(DomainError.init)))
            }

        case .changeApplied(.success(let applied)):
            state.isApplyingChange = false
            state.pendingChange = nil
            if case .roles(let outcome) = applied, let request = outcome.pendingRequest {
                state.notice = Notice.waiting(for: request)
            }
            return load(&state)

        case .changeApplied(.failure(let error)):
            state.isApplyingChange = false
            state.errorMessage = error.message
            return .none

        case .acceptRoleRequestTapped, .declineRoleRequestTapped, .cancelRoleRequestTapped, .roleRequestAnswered, .noticeDismissed:
            return reduceRoleRequest(into: &state, action: action)
        }
    }

    private func reduceQRCode(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .addByQRCodeTapped:
            if state.qrCode == nil { state.qrCode = QRCodeFlow() }
            return .none

        case .qrCodeTextChanged(let text):
            // A scan can arrive before the sheet is drawn, so it opens the flow too.
            var flow = state.qrCode ?? QRCodeFlow()
            guard !flow.isAdding else { return .none }
            // Another code needs its own lookup: the owner shown must be the code's owner.
            let isNewCode = flow.codeText != text
            let cancelsLookUp = isNewCode && flow.isLookingUp
            if isNewCode {
                flow.codeText = text
                flow.match = nil
                flow.isLookingUp = false
            }
            state.qrCode = flow
            return cancelsLookUp ? .cancel(id: CancelID.lookUp) : .none

        case .lookUpQRCodeTapped:
            guard var flow = state.qrCode, !flow.isLookingUp, !flow.isAdding else { return .none }
            let text = flow.codeText.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let id = UUID(uuidString: text) else {
                state.errorMessage = Refusal.notAQRCode(text)
                return .none
            }
            flow.isLookingUp = true
            state.qrCode = flow
            state.errorMessage = nil
            return .run { [client] send in
                await send(
                    .qrCodeLookedUp(
                        Result {
                            QRCodeFlow.Match(qrCodeID: id, owner: try await client.lookUpQRCode(id))
                        }.mapError(DomainError.init)))
            }
            .cancellable(id: CancelID.lookUp, cancelInFlight: true)

        case .qrCodeLookedUp(let result):
            guard state.qrCode?.isLookingUp == true else { return .none }
            state.qrCode?.isLookingUp = false
            switch result {
            case .success(let match): state.qrCode?.match = match
            case .failure(let error): state.errorMessage = error.message
            }
            return .none

        case .qrCodeRolesChanged(let roles):
            guard state.qrCode?.isAdding == false else { return .none }
            state.qrCode?.roles = roles
            return .none

        case .addByQRCodeConfirmed:
            guard var flow = state.qrCode, !flow.isAdding, let match = flow.match else { return .none }
            guard let roles = flow.roles else {
                state.errorMessage = Refusal.chooseRoles
                return .none
            }
            flow.isAdding = true
            state.qrCode = flow
            state.errorMessage = nil
            return .run { [client] send in
                await send(.addedByQRCode(Result { try await client.addByQRCode(match.qrCodeID, roles) }.mapError(DomainError.init)))
            }

        case .addedByQRCode(.success):
            state.qrCode = nil
            return load(&state)

        case .addedByQRCode(.failure(let error)):
            state.qrCode?.isAdding = false
            state.errorMessage = error.message
            return .none

        case .addByQRCodeCancelled:
            state.qrCode = nil
            // A lookup is only a question and can be dropped. An add already sent is left to
            // finish: the server may have linked us, and its answer reloads the list to show it.
            return .cancel(id: CancelID.lookUp)

        default:
            return .none
        }
    }

    func load(_ state: inout State) -> Effect<Action> {
        state.isLoading = true
        return .loadContactList(from: client, cancelID: CancelID.load, Action.loaded)
    }
}
