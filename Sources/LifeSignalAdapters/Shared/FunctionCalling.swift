import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

/// Adapters that reach the backend's cloud functions (seed `001_…`) over a wire: Supabase
/// Functions or Firebase callables.
///
/// The functions, their request and reply shapes and their errors are the same on both wires
/// (one definition, the backend's), so the clients made of functions alone are built once,
/// here; each adapter supplies only how a call travels and who is signed in.
protocol FunctionCalling: Sendable {
    /// Calls function `name` with a JSON body and decodes its reply; failures arrive as
    /// domain errors.
    func call<Response: Decodable>(_ name: String, _ body: some Encodable & Sendable) async throws -> Response
    /// The signed-in person, or ``DomainError/unauthenticated``.
    func me() async throws -> UserID
    /// The signed-in person's profile, read where the adapter keeps it.
    func ownProfile() async throws -> UserProfile
    /// My contact list each time it changes, starting after the call (``ContactsClient/stream``):
    /// the functions have no stream, so each adapter follows changes its own way.
    func contactListChanges() async throws -> AsyncThrowingStream<ContactList, any Error>
    /// My own active alert each time it changes, starting after the call (``AlertClient/stream``).
    func ownAlertChanges() async throws -> AsyncThrowingStream<AlertRecord?, any Error>
    /// My contacts and pending invitations: `get-contacts` unless the adapter reads them
    /// elsewhere (Firebase: the original app's Firestore documents).
    func contactList() async throws -> ContactList
    /// Who owns a QR code: `lookup-qr-code` unless the adapter finds it elsewhere.
    func lookUpQRCode(_ code: UUID) async throws -> QRCodeOwner
}

extension FunctionCalling {
    /// Calls `function` with `request`; the reply decodes as the function's response.
    func call<Request, Response>(_ function: CloudFunction<Request, Response>, _ request: Request) async throws -> Response {
        try await call(function.name, request)
    }

    /// Calls a function that takes nothing.
    func call<Response>(_ function: CloudFunction<EmptyRequest, Response>) async throws -> Response {
        try await call(function.name, EmptyRequest())
    }
}

extension FunctionCalling {
    /// Contacts through the contact functions.
    var functionContactsClient: ContactsClient {
        let adapters = self
        return ContactsClient(
            contacts: { try await adapters.contactList() },
            lookUpQRCode: { code in try await adapters.lookUpQRCode(code) },
            addByQRCode: { code, roles in
                let reply: ContactChangeResponse = try await adapters.call(
                    CloudFunctions.addContactByQR,
                    AddContactByQRRequest(
                        qrCodeId: code.uuidString.lowercased(), isResponder: roles.isResponder, isDependent: roles.isDependent))
                return try ContactSummary(wire: reply.contact)
            },
            qrCode: {
                let reply: QRCodeResponse = try await adapters.call(CloudFunctions.getQRCode)
                return try QRCode(wire: reply)
            },
            resetQRCode: { try await adapters.resetQRCode() },
            updateRoles: { contact, roles in
                let reply: RoleChangeResponse = try await adapters.call(
                    CloudFunctions.updateContactRoles,
                    UpdateContactRolesRequest(
                        contactId: contact.description, isResponder: roles.isResponder, isDependent: roles.isDependent))
                return try RoleChangeOutcome(wire: reply)
            },
            remove: { contact in
                let _: SuccessResponse = try await adapters.call(CloudFunctions.removeContact, RemoveContactRequest(contactId: contact.description))
            },
            invite: { phone, roles in
                let reply: InviteContactResponse = try await adapters.call(
                    CloudFunctions.inviteContact, InviteContactRequest(phone: phone.e164, roles: roles.names))
                // The reply carries the invitation; only a server from before it did not.
                if let invitation = reply.invitation { return try InvitationSummary(wire: invitation) }
                let id = try WireParse.uuid(reply.invitationId)
                guard let invitation = try await adapters.contactList().sentInvitations.first(where: { $0.id == id }) else {
                    throw DomainError.internal("Invitation \(id) is missing from the sent invitations")
                }
                return invitation
            },
            acceptInvitation: { id in
                let reply: AcceptInvitationResponse = try await adapters.call(
                    CloudFunctions.acceptInvitation, InvitationRequest(invitationId: id.uuidString.lowercased()))
                return try ContactSummary(wire: reply.contact)
            },
            declineInvitation: { id in
                let _: SuccessResponse = try await adapters.call(CloudFunctions.declineInvitation, InvitationRequest(invitationId: id.uuidString.lowercased()))
            },
            acceptRoleRequest: { id in
                let reply: AcceptRoleRequestResponse = try await adapters.call(CloudFunctions.acceptRoleRequest, RoleRequestIDRequest(id))
                return try ContactSummary(wire: reply.contact)
            },
            declineRoleRequest: { id in
                let _: SuccessResponse = try await adapters.call(CloudFunctions.declineRoleRequest, RoleRequestIDRequest(id))
            },
            cancelRoleRequest: { id in
                let _: SuccessResponse = try await adapters.call(CloudFunctions.cancelRoleRequest, RoleRequestIDRequest(id))
            },
            stream: { try await adapters.contactListChanges() })
    }

    /// SOS alerts through `trigger-alert`, `cancel-alert`, `get-active-alert`, `respond-to-alert`
    /// and `mark-safe` (``triggerAlert(sharing:)``, ``activeAlert(of:)``).
    var functionAlertClient: AlertClient {
        let adapters = self
        return AlertClient(
            trigger: { try await adapters.triggerAlert(sharing: nil) },
            triggerSharing: { try await adapters.triggerAlert(sharing: $0) },
            cancel: { id in
                let _: CancelAlertResponse = try await adapters.call(CloudFunctions.cancelAlert, CancelAlertRequest(alertId: id?.uuidString.lowercased()))
            },
            activeAlert: { try await adapters.activeAlert(of: $0) },
            respond: { id in
                let reply: RespondToAlertResponse = try await adapters.call(
                    CloudFunctions.respondToAlert, RespondToAlertRequest(alertId: id.uuidString.lowercased()))
                return try WireParse.date(reply.respondedAt)
            },
            markSafe: { try await adapters.markSafe($0) },
            stream: { try await adapters.ownAlertChanges() },
            sendTestAlert: {
                guard let report = try await adapters.call(CloudFunctions.sendTestAlert).report() else {
                    throw DomainError.internal("send-test-alert answered without a test")
                }
                return report
            },
            testAlert: { try await adapters.call(CloudFunctions.getTestAlert).report() })
    }

    /// Pings through `ping-dependent`, `respond-to-ping`, `respond-to-all-pings`, `clear-ping`;
    /// what waits on either side is read from `get-contacts` and followed through the contact
    /// list's stream.
    var functionPingClient: PingClient {
        let adapters = self
        let contacts = functionContactsClient
        return PingClient(
            ping: { dependent in
                let reply: PingDependentResponse = try await adapters.call(CloudFunctions.pingDependent, DependentRequest(dependentId: dependent.description))
                return try WireParse.uuid(reply.pingId)
            },
            respond: { responder in
                let _: SuccessResponse = try await adapters.call(CloudFunctions.respondToPing, RespondToPingRequest(responderId: responder.description))
            },
            respondToAll: {
                let reply: RespondToAllPingsResponse = try await adapters.call(CloudFunctions.respondToAllPings)
                return reply.respondedCount
            },
            clear: { dependent in
                let _: SuccessResponse = try await adapters.call(CloudFunctions.clearPing, DependentRequest(dependentId: dependent.description))
            },
            pending: { PingList(try await adapters.contactList()).pending },
            sent: { PingList(try await adapters.contactList()).sent },
            stream: { try await PingList.changes(of: contacts) })
    }

    /// `mark-notifications-read`: the ids given, or all when `nil`; how many changed.
    func markNotificationsRead(_ ids: [UUID]?) async throws -> Int {
        let request = MarkNotificationsReadRequest(notificationIds: ids.map { $0.map { $0.uuidString.lowercased() } }, all: ids == nil ? true : nil)
        let reply: CountResponse = try await call(CloudFunctions.markNotificationsRead, request)
        return reply.count
    }

    /// `clear-notifications`: of the types given, or all when `nil`; how many went.
    func clearNotifications(_ types: [NotificationType]?) async throws -> Int {
        let reply: CountResponse = try await call(CloudFunctions.clearNotifications, ClearNotificationsRequest(types: types?.map(\.rawValue)))
        return reply.count
    }

    /// `register-push-token`: this device's token for the signed-in person.
    func registerPushToken(_ token: String, platform: String) async throws {
        let _: SuccessResponse = try await call(CloudFunctions.registerPushToken, RegisterPushTokenRequest(token: token, platform: platform))
    }

    /// `send-push-notification`: a notification to a contact; the id of the one written.
    func sendPush(to contact: UserID, title: String, body: String) async throws -> UUID {
        let reply: SendPushNotificationResponse = try await call(
            CloudFunctions.sendPushNotification, SendPushNotificationRequest(userId: contact.description, title: title, body: body))
        return try WireParse.uuid(reply.messageId)
    }

    func lookUpQRCode(_ code: UUID) async throws -> QRCodeOwner {
        let reply: LookupQRCodeResponse = try await call(CloudFunctions.lookupQRCode, QRCodeRequest(qrCodeId: code.uuidString.lowercased()))
        return QRCodeOwner(userID: try WireParse.userID(reply.userId), name: reply.name)
    }

    func contactList() async throws -> ContactList { try await functionContactList() }

    /// `get-contacts`: contacts, invitations and role requests, each both ways.
    func functionContactList() async throws -> ContactList {
        let reply: GetContactsResponse = try await call(CloudFunctions.getContacts)
        return try ContactList(wire: reply)
    }

    /// `reset-qr-code`: a fresh code, the old one dead at once.
    func resetQRCode() async throws -> QRCode {
        let reply: QRCodeResponse = try await call(CloudFunctions.resetQRCode)
        return try QRCode(wire: reply)
    }
}

extension RoleRequestIDRequest {
    init(_ id: UUID) { self.init(requestId: id.uuidString.lowercased()) }
}
