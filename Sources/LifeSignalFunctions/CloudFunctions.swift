import Foundation
import LifeSignalDomain

/// Every cloud function by name, with the request it takes and the reply it gives: the one
/// list the backend registers its handlers from and every adapter calls, so a name is never
/// spelled twice and a call cannot pair a function with another's reply.
///
/// The content and document functions reply with records whose shape the caller chooses
/// (a location, an event, a route; a document snapshot), so they are generic over the reply.
public enum CloudFunctions {
    // MARK: Account
    public static let updateUserProfile = CloudFunction<UpdateUserProfileRequest, ProfileResponse>("update-user-profile")
    public static let updateCheckInSettings = CloudFunction<UpdateCheckInSettingsRequest, ProfileResponse>("update-check-in-settings")
    public static let deleteUserAccount = CloudFunction<EmptyRequest, SuccessResponse>("delete-user-account")
    public static let processCheckIns = CloudFunction<ProcessCheckInsRequest, ProcessCheckInsResponse>("process-check-ins")
    // MARK: Alerts
    public static let triggerAlert = CloudFunction<TriggerAlertRequest, TriggerAlertResponse>("trigger-alert")
    public static let cancelAlert = CloudFunction<CancelAlertRequest, CancelAlertResponse>("cancel-alert")
    public static let getActiveAlert = CloudFunction<GetActiveAlertRequest, GetActiveAlertResponse>("get-active-alert")
    public static let respondToAlert = CloudFunction<RespondToAlertRequest, RespondToAlertResponse>("respond-to-alert")
    public static let markSafe = CloudFunction<MarkSafeRequest, MarkSafeResponse>("mark-safe")
    // MARK: CheckIn
    public static let checkIn = CloudFunction<CheckInRequest, CheckInResponse>("check-in")
    public static let getCheckInPINs = CloudFunction<EmptyRequest, CheckInPINsResponse>("get-check-in-pins")
    public static let setCheckInPINs = CloudFunction<SetCheckInPINsRequest, CheckInPINsResponse>("set-check-in-pins")
    public static let sendTestAlert = CloudFunction<EmptyRequest, TestAlertResponse>("send-test-alert")
    public static let getTestAlert = CloudFunction<EmptyRequest, TestAlertResponse>("get-test-alert")
    // MARK: Contacts
    public static let lookupQRCode = CloudFunction<QRCodeRequest, LookupQRCodeResponse>("lookup-qr-code")
    public static let getQRCode = CloudFunction<EmptyRequest, QRCodeResponse>("get-qr-code")
    public static let resetQRCode = CloudFunction<EmptyRequest, QRCodeResponse>("reset-qr-code")
    public static let addContactByQR = CloudFunction<AddContactByQRRequest, ContactChangeResponse>("add-contact-by-qr")
    public static let updateContactRoles = CloudFunction<UpdateContactRolesRequest, RoleChangeResponse>("update-contact-roles")
    public static let removeContact = CloudFunction<RemoveContactRequest, SuccessResponse>("remove-contact")
    public static let getContacts = CloudFunction<EmptyRequest, GetContactsResponse>("get-contacts")
    public static let inviteContact = CloudFunction<InviteContactRequest, InviteContactResponse>("invite-contact")
    public static let acceptInvitation = CloudFunction<InvitationRequest, AcceptInvitationResponse>("accept-invitation")
    public static let declineInvitation = CloudFunction<InvitationRequest, SuccessResponse>("decline-invitation")
    // MARK: Content
    public static func listContent<Reply: Decodable & Sendable>(reply: Reply.Type) -> CloudFunction<ListContentRequest, Reply> { .init("list-content") }
    public static func getContent<Reply: Decodable & Sendable>(reply: Reply.Type) -> CloudFunction<ContentIDRequest, Reply> { .init("get-content") }
    public static func saveContent<Fields: Codable & Sendable & Hashable, Reply: Decodable & Sendable>(_ fields: Fields.Type, reply: Reply.Type)
        -> CloudFunction<SaveContentRequest<Fields>, Reply>
    { .init("save-content") }
    public static let deleteContent = CloudFunction<ContentIDRequest, SuccessResponse>("delete-content")
    // MARK: Deliveries
    public static let getDeliveryPreferences = CloudFunction<EmptyRequest, DeliveryPreferencesResponse>("get-delivery-preferences")
    public static let updateDeliveryPreferences = CloudFunction<UpdateDeliveryPreferencesRequest, DeliveryPreferencesResponse>("update-delivery-preferences")
    public static let listDeliveries = CloudFunction<ListDeliveriesRequest, ListDeliveriesResponse>("list-deliveries")
    // MARK: Documents
    public static let getDocument = CloudFunction<DocumentPathRequest, DocumentSnapshot>("get-document")
    public static let setDocument = CloudFunction<SetDocumentRequest, DocumentSnapshot>("set-document")
    public static let updateDocument = CloudFunction<UpdateDocumentRequest, DocumentSnapshot>("update-document")
    public static let deleteDocument = CloudFunction<DocumentPathRequest, SuccessResponse>("delete-document")
    public static let queryDocuments = CloudFunction<QueryDocumentsRequest, QueryDocumentsResponse>("query-documents")
    // MARK: Escalation
    public static let getEscalationSettings = CloudFunction<EmptyRequest, EscalationSettingsResponse>("get-escalation-settings")
    public static let updateEscalationSettings = CloudFunction<UpdateEscalationSettingsRequest, EscalationSettingsResponse>("update-escalation-settings")
    public static let updateContactTier = CloudFunction<UpdateContactTierRequest, EscalationSettingsResponse>("update-contact-tier")
    public static let pauseCheckIns = CloudFunction<PauseCheckInsRequest, EscalationSettingsResponse>("pause-check-ins")
    public static let resumeCheckIns = CloudFunction<EmptyRequest, EscalationSettingsResponse>("resume-check-ins")
    // MARK: Messaging
    public static let unregisterPushToken = CloudFunction<DeviceTokenRequest, SuccessResponse>("unregister-push-token")
    public static let subscribeTopic = CloudFunction<TopicSubscriptionRequest, SuccessResponse>("subscribe-topic")
    public static let unsubscribeTopic = CloudFunction<TopicSubscriptionRequest, SuccessResponse>("unsubscribe-topic")
    public static let getDeviceMessages = CloudFunction<GetDeviceMessagesRequest, GetDeviceMessagesResponse>("get-device-messages")
    public static let sendTopicMessage = CloudFunction<SendTopicMessageRequest, CountResponse>("send-topic-message")
    // MARK: Notifications
    public static let registerPushToken = CloudFunction<RegisterPushTokenRequest, SuccessResponse>("register-push-token")
    public static let sendPushNotification = CloudFunction<SendPushNotificationRequest, SendPushNotificationResponse>("send-push-notification")
    public static let markNotificationsRead = CloudFunction<MarkNotificationsReadRequest, CountResponse>("mark-notifications-read")
    public static let clearNotifications = CloudFunction<ClearNotificationsRequest, CountResponse>("clear-notifications")
    // MARK: Pings
    public static let pingDependent = CloudFunction<DependentRequest, PingDependentResponse>("ping-dependent")
    public static let clearPing = CloudFunction<DependentRequest, SuccessResponse>("clear-ping")
    public static let respondToPing = CloudFunction<RespondToPingRequest, SuccessResponse>("respond-to-ping")
    public static let respondToAllPings = CloudFunction<EmptyRequest, RespondToAllPingsResponse>("respond-to-all-pings")
    // MARK: Reads
    public static let getUserProfile = CloudFunction<EmptyRequest, ProfileResponse>("get-user-profile")
    public static let getNotifications = CloudFunction<GetNotificationsRequest, GetNotificationsResponse>("get-notifications")
    public static let getCheckInHistory = CloudFunction<CheckInHistoryRequest, CheckInHistoryResponse>("get-check-in-history")
    // MARK: RoleRequests
    public static let acceptRoleRequest = CloudFunction<RoleRequestIDRequest, AcceptRoleRequestResponse>("accept-role-request")
    public static let declineRoleRequest = CloudFunction<RoleRequestIDRequest, SuccessResponse>("decline-role-request")
    public static let cancelRoleRequest = CloudFunction<RoleRequestIDRequest, SuccessResponse>("cancel-role-request")

    /// Every function's name, once each (the backend refuses to start when a handler is missing
    /// or registered twice).
    public static let names: [String] = [
        "update-user-profile",
        "update-check-in-settings",
        "delete-user-account",
        "process-check-ins",
        "trigger-alert",
        "cancel-alert",
        "get-active-alert",
        "respond-to-alert",
        "mark-safe",
        "check-in",
        "get-check-in-pins",
        "set-check-in-pins",
        "send-test-alert",
        "get-test-alert",
        "lookup-qr-code",
        "get-qr-code",
        "reset-qr-code",
        "add-contact-by-qr",
        "update-contact-roles",
        "remove-contact",
        "get-contacts",
        "invite-contact",
        "accept-invitation",
        "decline-invitation",
        "list-content",
        "get-content",
        "save-content",
        "delete-content",
        "get-delivery-preferences",
        "update-delivery-preferences",
        "list-deliveries",
        "get-document",
        "set-document",
        "update-document",
        "delete-document",
        "query-documents",
        "get-escalation-settings",
        "update-escalation-settings",
        "update-contact-tier",
        "pause-check-ins",
        "resume-check-ins",
        "unregister-push-token",
        "subscribe-topic",
        "unsubscribe-topic",
        "get-device-messages",
        "send-topic-message",
        "register-push-token",
        "send-push-notification",
        "mark-notifications-read",
        "clear-notifications",
        "ping-dependent",
        "clear-ping",
        "respond-to-ping",
        "respond-to-all-pings",
        "get-user-profile",
        "get-notifications",
        "get-check-in-history",
        "accept-role-request",
        "decline-role-request",
        "cancel-role-request",
    ]
}
