import Foundation
import LifeSignalClients
import LifeSignalDomain

extension LiveClients {
    /// Clients usable at once, before anything is opened: each call opens the set (once, see
    /// ``clients()``) and forwards to its client. A throwing call whose set cannot be opened
    /// throws the open's ``DomainError``; the others answer as a backend with nothing to say
    /// (no session; streams that end).
    public var deferred: ClientSet {
        func endpoints<Client>(_ pick: @escaping @Sendable (ClientSet) -> Client) -> DeferredEndpoints<Client> {
            DeferredEndpoints { () async throws(DomainError) -> Client in pick(try await self.clients()) }
        }
        let auth = endpoints(\.auth)
        let checkIn = endpoints(\.checkIn)
        let contacts = endpoints(\.contacts)
        let alerts = endpoints(\.alerts)
        let pings = endpoints(\.pings)
        let notifications = endpoints(\.notifications)
        let content = endpoints(\.content)
        let user = endpoints(\.user)
        let documents = endpoints(\.documents)
        let functions = endpoints(\.functions)
        let files = endpoints(\.files)
        let messaging = endpoints(\.messaging)
        return ClientSet(
            auth: AuthClient(
                sendCode: auth.forward(\.sendCode), verifyCode: auth.forward(\.verifyCode),
                currentSession: auth.forward(\.currentSession, otherwise: { nil }), signOut: auth.forward(\.signOut),
                requestPhoneChange: auth.forward(\.requestPhoneChange), confirmPhoneChange: auth.forward(\.confirmPhoneChange),
                deleteAccount: auth.forward(\.deleteAccount),
                sessionChanges: auth.forward(\.sessionChanges, otherwise: { AsyncStream { $0.finish() } })),
            checkIn: CheckInClient(
                checkIn: checkIn.forward(\.checkIn), status: checkIn.forward(\.status), settings: checkIn.forward(\.settings),
                updateSettings: checkIn.forward(\.updateSettings), history: checkIn.forward(\.history),
                escalation: checkIn.forward(\.escalation), updateEscalation: checkIn.forward(\.updateEscalation),
                setResponderTier: checkIn.forward(\.setResponderTier), pause: checkIn.forward(\.pause), resume: checkIn.forward(\.resume),
                checkInWithPIN: checkIn.forward(\.checkInWithPIN), pinSettings: checkIn.forward(\.pinSettings),
                setPINs: checkIn.forward(\.setPINs)),
            contacts: ContactsClient(
                contacts: contacts.forward(\.contacts), lookUpQRCode: contacts.forward(\.lookUpQRCode),
                addByQRCode: contacts.forward(\.addByQRCode), qrCode: contacts.forward(\.qrCode),
                resetQRCode: contacts.forward(\.resetQRCode), updateRoles: contacts.forward(\.updateRoles),
                remove: contacts.forward(\.remove), invite: contacts.forward(\.invite),
                acceptInvitation: contacts.forward(\.acceptInvitation), declineInvitation: contacts.forward(\.declineInvitation),
                acceptRoleRequest: contacts.forward(\.acceptRoleRequest), declineRoleRequest: contacts.forward(\.declineRoleRequest),
                cancelRoleRequest: contacts.forward(\.cancelRoleRequest), stream: contacts.forward(\.stream)),
            alerts: AlertClient(
                trigger: alerts.forward(\.trigger), triggerSharing: alerts.forward(\.triggerSharing), cancel: alerts.forward(\.cancel),
                activeAlert: alerts.forward(\.activeAlert), respond: alerts.forward(\.respond), markSafe: alerts.forward(\.markSafe),
                stream: alerts.forward(\.stream), sendTestAlert: alerts.forward(\.sendTestAlert), testAlert: alerts.forward(\.testAlert)),
            pings: PingClient(
                ping: pings.forward(\.ping), respond: pings.forward(\.respond), respondToAll: pings.forward(\.respondToAll),
                clear: pings.forward(\.clear), pending: pings.forward(\.pending), sent: pings.forward(\.sent), stream: pings.forward(\.stream)),
            notifications: NotificationClient(
                notifications: notifications.forward(\.notifications), markRead: notifications.forward(\.markRead),
                clear: notifications.forward(\.clear), stream: notifications.forward(\.stream),
                registerPushToken: notifications.forward(\.registerPushToken), sendPush: notifications.forward(\.sendPush),
                deliveryPreferences: notifications.forward(\.deliveryPreferences),
                updateDeliveryPreferences: notifications.forward(\.updateDeliveryPreferences),
                updateFallbackOrder: notifications.forward(\.updateFallbackOrder)),
            content: ContentClient(
                locations: content.forward(\.locations), saveLocation: content.forward(\.saveLocation),
                deleteLocation: content.forward(\.deleteLocation), events: content.forward(\.events), saveEvent: content.forward(\.saveEvent),
                deleteEvent: content.forward(\.deleteEvent), routes: content.forward(\.routes), saveRoute: content.forward(\.saveRoute),
                deleteRoute: content.forward(\.deleteRoute)),
            user: UserClient(
                profile: user.forward(\.profile), update: user.forward(\.update), uploadAvatar: user.forward(\.uploadAvatar),
                removeAvatar: user.forward(\.removeAvatar), resetQRCode: user.forward(\.resetQRCode), stream: user.forward(\.stream)),
            documents: DocumentsClient(
                getDocument: documents.forward(\.getDocument), setDocument: documents.forward(\.setDocument),
                updateDocument: documents.forward(\.updateDocument), deleteDocument: documents.forward(\.deleteDocument),
                queryDocuments: documents.forward(\.queryDocuments), listenDocument: documents.forward(\.listenDocument),
                listenQuery: documents.forward(\.listenQuery)),
            functions: CloudFunctionClient(call: functions.forward(\.call)),
            files: FileStorageClient(
                upload: files.forward(\.upload), download: files.forward(\.download), delete: files.forward(\.delete),
                downloadURL: files.forward(\.downloadURL)),
            messaging: MessagingClient(
                token: messaging.forward(\.token), deleteToken: messaging.forward(\.deleteToken),
                subscribe: messaging.forward(\.subscribe), unsubscribe: messaging.forward(\.unsubscribe),
                tokenStream: messaging.relay(\.tokenStream), messageStream: messaging.relay(\.messageStream)))
    }
}
