import Foundation

/// The functions that take another person's id (or a row of theirs), as the model has them:
/// who may call each against the person. Everyone else is refused (401, 403 or 404 — the
/// answer must not say more than that) and changes nothing; callers in `harmless` act on
/// their own data whatever they name, so only "nothing of the person's changed" is asked.
struct FunctionCase: Sendable {
    let name: String
    let body: @Sendable (FunctionTargets) -> [String: any Sendable]
    let allowed: Set<MatrixActor>
    var harmless: Set<MatrixActor> = []
    /// Service-role reads (`table`, query) of what a refused call must leave as it was.
    let watch: @Sendable (FunctionTargets) -> [(table: String, query: String)]
    /// An allowed call changes the person's data: such calls run one by one after every
    /// refusal, in this list's order.
    var changesState = false
    /// Whether a 2xx reply that shows nothing counts as a refusal (a query that finds none).
    var emptyIsRefusal: (@Sendable ([String: any Sendable]) -> Bool)?
    /// Keys an allowed reply may hold, when the function must show only those.
    var replyKeys: Set<String>?
}

/// The ids the function cases aim at.
struct FunctionTargets: Sendable {
    let person: String, responder: String, editor: String
    let alert: String, invitation: String, notification: String, draft: String, qrCode: String
    /// The person's device token (a credential: nobody else reads it, but it must open nothing).
    let device: String
    let roleRequest: String?
}

enum FunctionModel {
    static let signedIn: Set<MatrixActor> = [.stranger, .dependent, .responder, .person, .editor]

    static let cases: [FunctionCase] = {
        let personsContacts: @Sendable (FunctionTargets) -> [(table: String, query: String)] = {
            [("contacts", "or=(user_id.eq.\($0.person),contact_id.eq.\($0.person))&order=id")]
        }
        let personsPings: @Sendable (FunctionTargets) -> [(table: String, query: String)] = {
            [("pings", "or=(sender_id.eq.\($0.person),recipient_id.eq.\($0.person))&order=id")]
        }
        let personsDocument: @Sendable (FunctionTargets) -> [(table: String, query: String)] = {
            [("documents", "owner_id=eq.\($0.person)&order=path")]
        }
        let document: @Sendable (FunctionTargets) -> String = { "users/\($0.person)/notes/first" }
        var cases: [FunctionCase] = [
            FunctionCase(name: "get-active-alert", body: { ["userId": $0.person] }, allowed: [.person, .responder], watch: { _ in [] }),
            FunctionCase(
                name: "respond-to-alert", body: { ["alertId": $0.alert] }, allowed: [.responder],
                watch: { [("alert_responses", "alert_id=eq.\($0.alert)&order=responder_id")] }),
            // The responder clears the fixture's ping, pings again, and the person answers.
            FunctionCase(name: "clear-ping", body: { ["dependentId": $0.person] }, allowed: [.responder], watch: personsPings, changesState: true),
            FunctionCase(name: "ping-dependent", body: { ["dependentId": $0.person] }, allowed: [.responder], watch: personsPings, changesState: true),
            FunctionCase(
                name: "respond-to-ping", body: { ["responderId": $0.responder] }, allowed: [.person],
                harmless: [.stranger, .dependent, .responder, .editor], watch: personsPings, changesState: true),
            FunctionCase(
                name: "send-push-notification", body: { ["userId": $0.person, "title": "Hello", "body": "From the matrix"] },
                allowed: [.person, .responder, .dependent, .service],
                watch: { [("notifications", "user_id=eq.\($0.person)&type=eq.system&order=id")] }, changesState: true),
            // The dependent asks to become the person's responder: it waits for the person's
            // consent, so nothing the dependent reads changes (docs/security.md, consent).
            FunctionCase(
                name: "update-contact-roles", body: { ["contactId": $0.person, "isResponder": true, "isDependent": true] },
                allowed: [.responder], harmless: [.dependent], watch: personsContacts, changesState: true),
            FunctionCase(name: "get-document", body: { ["path": document($0)] }, allowed: [.person, .service], watch: personsDocument),
            // The person's profile document: contacts read what get-contacts gives their role.
            FunctionCase(
                name: "get-document", body: { ["path": "users/\($0.person)"] }, allowed: [.person, .responder, .dependent, .service],
                watch: { _ in [] }),
            FunctionCase(
                name: "set-document", body: { ["path": document($0), "data": ["note": ["string": "overwritten"]]] },
                allowed: [.person, .service], watch: personsDocument, changesState: true),
            FunctionCase(
                name: "update-document", body: { ["path": document($0), "fields": ["note": ["string": "overwritten"]]] },
                allowed: [.person, .service], watch: personsDocument, changesState: true),
            FunctionCase(name: "delete-document", body: { ["path": document($0)] }, allowed: [.person], watch: personsDocument, changesState: true),
            FunctionCase(
                name: "query-documents", body: { ["collection": "users/\($0.person)/notes"] }, allowed: [.person, .service],
                watch: { _ in [] }, emptyIsRefusal: { ($0["documents"] as? [Any])?.isEmpty == true }),
            // The person's contacts and invitations as documents (projected from the tables).
            FunctionCase(
                name: "query-documents", body: { ["collection": "users/\($0.person)/contacts"] }, allowed: [.person, .service],
                watch: { _ in [] }, emptyIsRefusal: { ($0["documents"] as? [Any])?.isEmpty == true }),
            FunctionCase(
                name: "lookup-qr-code", body: { ["qrCodeId": $0.qrCode] }, allowed: signedIn, watch: { _ in [] },
                replyKeys: ["success", "userId", "name"]),
            FunctionCase(
                name: "accept-invitation", body: { ["invitationId": $0.invitation] }, allowed: [],
                watch: { [("contact_invitations", "id=eq.\($0.invitation)")] + personsContacts($0) }),
            FunctionCase(
                name: "decline-invitation", body: { ["invitationId": $0.invitation] }, allowed: [],
                watch: { [("contact_invitations", "id=eq.\($0.invitation)")] }),
            FunctionCase(
                name: "mark-notifications-read", body: { ["notificationIds": [$0.notification]] }, allowed: [.person],
                harmless: [.stranger, .dependent, .responder, .editor],
                watch: { [("notifications", "id=eq.\($0.notification)")] }, changesState: true),
            // Drafts are the editors' (docs/security.md: content).
            FunctionCase(name: "get-content", body: { ["table": "locations", "id": $0.draft] }, allowed: [.editor, .service], watch: { _ in [] }),
            FunctionCase(
                name: "list-content", body: { _ in ["table": "locations", "status": "draft"] }, allowed: [.editor, .service],
                watch: { _ in [] }, emptyIsRefusal: { ($0["records"] as? [Any])?.isEmpty == true }),
            // A device token opens only its owner's inbox and subscriptions.
            FunctionCase(
                name: "get-device-messages", body: { ["token": $0.device] }, allowed: [.person], watch: { _ in [] },
                emptyIsRefusal: { ($0["messages"] as? [Any])?.isEmpty == true }),
            FunctionCase(
                name: "subscribe-topic", body: { ["token": $0.device, "topic": "matrix-elsewhere"] }, allowed: [.person],
                watch: { [("topic_subscriptions", "token=eq.\($0.device)&order=topic")] }, changesState: true),
            FunctionCase(
                name: "send-topic-message", body: { _ in ["topic": "matrix-person", "title": "Hello", "body": "To the topic"] },
                allowed: [.service], watch: { [("device_messages", "user_id=eq.\($0.person)&order=seq")] }, changesState: true),
            // Functions act for a person: the service role writes content through /rest/v1.
            FunctionCase(
                name: "save-content",
                body: { _ in
                    ["table": "locations", "record": ["name": "Matrix function content", "slug": "matrix-function-content", "status": "published"]]
                }, allowed: [.editor], watch: { _ in [("locations", "slug=eq.matrix-function-content")] }, changesState: true),
            FunctionCase(
                name: "process-check-ins", body: { _ in [:] }, allowed: [.service],
                watch: { [("users", "id=eq.\($0.person)")] }, changesState: true),
            // Only a responder marks the person safe (MarkSafeTests); nobody else may end the alert.
            FunctionCase(
                name: "mark-safe", body: { ["alertId": $0.alert] }, allowed: [],
                watch: { [("alerts", "id=eq.\($0.alert)"), ("notifications", "user_id=eq.\($0.person)&type=eq.marked_safe")] }),
            FunctionCase(
                name: "cancel-alert", body: { ["alertId": $0.alert] }, allowed: [.person],
                watch: { [("alerts", "id=eq.\($0.alert)")] }, changesState: true),
            FunctionCase(
                name: "delete-content", body: { ["table": "locations", "id": $0.draft] }, allowed: [.editor],
                watch: { [("locations", "id=eq.\($0.draft)")] }, changesState: true),
        ]
        // Role requests (consent): only the person answers, only the requester cancels. The
        // allowed answers need a request each; one is made (declined by the person, last).
        let request: @Sendable (FunctionTargets) -> [String: any Sendable] = { ["requestId": $0.roleRequest ?? ""] }
        let requests: @Sendable (FunctionTargets) -> [(table: String, query: String)] = {
            [("contact_role_requests", "id=eq.\($0.roleRequest ?? "")")] + personsContacts($0)
        }
        cases += [
            FunctionCase(name: "accept-role-request", body: request, allowed: [], watch: requests),
            FunctionCase(name: "cancel-role-request", body: request, allowed: [], watch: requests),
            FunctionCase(name: "decline-role-request", body: request, allowed: [.person], watch: requests, changesState: true),
            FunctionCase(
                name: "unregister-push-token", body: { ["token": $0.device] }, allowed: [.person],
                watch: { [("push_tokens", "token=eq.\($0.device)")] }, changesState: true),
            // Last: it ends the relations every case above relies on.
            FunctionCase(
                name: "remove-contact", body: { ["contactId": $0.person] }, allowed: [.responder, .dependent],
                watch: personsContacts, changesState: true),
        ]
        return cases
    }()

    /// Callers the model lets call a case, or who call it harmlessly, are judged apart; the
    /// person's own and the dependent's requests aim at themselves in the role-request cases,
    /// so those callers are not asked there (`ContactRoleRequestTests` answer requests as their parties).
    static func actors(for item: FunctionCase) -> [MatrixActor] {
        let skip: Set<MatrixActor> =
            switch item.name {
            case "accept-role-request": [.person]
            case "cancel-role-request": [.dependent]
            // Deleted by the person just before; the service role's delete is `set-document`'s kind.
            case "delete-document": [.service]
            // The responder's mark-safe would end the alert the later cases need.
            case "mark-safe": [.responder]
            default: []
            }
        return MatrixActor.allCases.filter { !skip.contains($0) }
    }
}
