import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The people of the matrix, made as an app would make them, over HTTP: phone sign-ins,
/// contacts through `invite-contact` + `accept-invitation` (the consent path), a check-in
/// each, alerts, a response, pings, notifications, documents, device tokens, content made by
/// an editor, and a role request when the server has them. Two spare people, related to
/// nobody, own the throwaway rows of allowed writes, so those never change what an actor reads.
struct MatrixFixture: Sendable {
    let server: TestServer
    let test: TestBackend
    /// Each signed-in actor's user id (lower case) and access token.
    let ids: [MatrixActor: String]
    let tokens: [MatrixActor: String]
    let spareA: String, spareB: String
    let spareToken: String
    /// The person's secrets: none may appear in a reply to anyone else.
    let personPhone: String, personNote: String, documentText: String
    /// Key rows by name, for the function cells.
    let personAlert: String, personInvitation: String, editorDraft: String
    /// The dependent's pending request to become the person's responder, when the server has
    /// role requests (docs/security.md, consent).
    let roleRequest: String?

    static let phones: [MatrixActor: String] = [
        .person: "+15550007001", .responder: "+15550007002", .dependent: "+15550007003", .stranger: "+15550007004",
        .editor: "+15550007005",
    ]
    static let sparePhones = ["+15550007006", "+15550007007"]
    static let inviteePhone = "+15550007009"
    /// Throwaway accounts whose `users` row an allowed write re-creates.
    static let throwawayPhones = ["+15550007011", "+15550007012", "+15550007013"]
    static var otps: String {
        (Array(phones.values) + sparePhones + throwawayPhones).map { "\($0)=\($0.suffix(6))" }.joined(separator: ",")
    }

    func id(_ actor: MatrixActor) -> String? { ids[actor] }

    /// The device token the fixture registers for `name` (`person`, `stranger`, `spare`).
    static func device(of name: String) -> String { "matrix-\(name)-device" }

    /// Sends a request as `actor`: the anon key and the actor's token, or the service key.
    func send(
        _ actor: MatrixActor, _ method: String, _ path: String, headers: [String: String] = [:],
        json: Any? = nil
    ) async throws -> TestServer.Reply {
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) }
        switch actor {
        case .service:
            return try await server.request(method, path, apiKey: server.serviceKey, bearer: server.serviceKey, headers: headers, body: body)
        case .anon:
            return try await server.request(method, path, headers: headers, body: body)
        default:
            return try await server.request(method, path, bearer: tokens[actor], headers: headers, body: body)
        }
    }

    /// Calls a function as `actor` and requires a 2xx: for building the fixture.
    @discardableResult
    static func call(_ server: TestServer, _ token: String?, _ name: String, _ body: [String: any Sendable] = [:]) async throws -> [String: any Sendable] {
        let apiKey: String?? = token == server.serviceKey ? .some(server.serviceKey) : .none
        let reply = try await server.request(
            "POST", "/functions/v1/\(name)", apiKey: apiKey, bearer: token,
            body: try JSONSerialization.data(withJSONObject: body))
        return try #require((200..<300).contains(reply.status) ? reply.json : nil, "\(name): \(reply.status) \(reply.text)")
    }

    /// Phone sign-in over `/auth/v1`: a code, then `verify`; returns (user id, access token, refresh token).
    static func signIn(_ server: TestServer, _ phone: String) async throws -> (id: String, token: String, refresh: String) {
        let version = ["X-Supabase-Api-Version": "2024-01-01"]
        let otp = try await server.json("POST", "/auth/v1/otp", headers: version, ["phone": phone])
        #expect(otp.status == 200, "otp \(phone): \(otp.text)")
        let verify = try await server.json("POST", "/auth/v1/verify", headers: version, ["type": "sms", "phone": phone, "token": String(phone.suffix(6))])
        let session = try #require(verify.status == 200 ? verify.json : nil, "verify \(phone): \(verify.status) \(verify.text)")
        let user = try #require(session["user"] as? [String: any Sendable])
        return (
            try #require(user["id"] as? String).lowercased(), try #require(session["access_token"] as? String),
            try #require(session["refresh_token"] as? String)
        )
    }

    /// Makes `id` an editor as an operator would, with the service role: GoTrue's admin API if
    /// the server has it, else `auth_users.app_metadata` in the database; then a fresh token
    /// carries the claim.
    static func makeEditor(_ server: TestServer, _ test: TestBackend, id: String, refresh: String) async throws -> String {
        let admin = try await server.request(
            "PUT", "/auth/v1/admin/users/\(id)", apiKey: server.serviceKey, bearer: server.serviceKey,
            body: Data(#"{"app_metadata":{"role":"editor"}}"#.utf8))
        if !(200..<300).contains(admin.status) {
            do {
                try await test.backend.database.query(SQL.raw("UPDATE auth_users SET app_metadata = '{\"role\":\"editor\"}' WHERE id = '\(id)'"))
            } catch {
                Issue.record("the editor could not be made (no admin API: \(admin.status); no auth_users.app_metadata: \(error))")
            }
        }
        let refreshed = try await server.json("POST", "/auth/v1/token?grant_type=refresh_token", ["refresh_token": refresh])
        return try #require(refreshed.json?["access_token"] as? String, "refresh: \(refreshed.status) \(refreshed.text)")
    }

    static func make(_ test: TestBackend, _ server: TestServer, exposed: ExposedTables) async throws -> MatrixFixture {
        var ids: [MatrixActor: String] = [:]
        var tokens: [MatrixActor: String] = [:]
        var refresh: [MatrixActor: String] = [:]
        for (actor, phone) in phones {
            let session = try await signIn(server, phone)
            (ids[actor], tokens[actor], refresh[actor]) = (session.id, session.token, session.refresh)
        }
        let spareA = try await signIn(server, sparePhones[0])
        let spareB = try await signIn(server, sparePhones[1])
        tokens[.editor] = try await makeEditor(server, test, id: ids[.editor] ?? "", refresh: refresh[.editor] ?? "")
        func token(_ actor: MatrixActor) -> String? { tokens[actor] }

        // Device tokens first, so every push below is also kept in `device_messages`.
        for (owner, name) in [(token(.person), "person"), (token(.stranger), "stranger"), (spareA.token, "spare")] {
            try await call(server, owner, "register-push-token", ["token": device(of: name), "platform": "fcm"])
            try await call(server, owner, "subscribe-topic", ["token": device(of: name), "topic": "matrix-\(name)"])
        }
        // Channel choices of their own, so `delivery_preferences` has rows to aim at.
        for actor in [MatrixActor.person, .stranger] { try await call(server, token(actor), "update-delivery-preferences", ["email": "all"]) }
        let note = "The person's private note"
        let documentText = "the person's private document"
        try await call(server, token(.person), "update-user-profile", ["firstName": "Pat", "lastName": "Person", "emergencyNote": note])
        // Contacts through the consent path: the invitee accepts.
        for (invitee, roles) in [(MatrixActor.responder, ["responder"]), (.dependent, ["dependent"])] {
            let sent = try await call(server, token(.person), "invite-contact", ["phone": phones[invitee] ?? "", "roles": roles])
            try await call(server, token(invitee), "accept-invitation", ["invitationId": try #require(sent["invitationId"] as? String)])
        }
        let pending = try await call(server, token(.person), "invite-contact", ["phone": inviteePhone, "roles": ["responder"]])
        for actor in [MatrixActor.person, .responder, .dependent, .stranger] { try await call(server, token(actor), "check-in") }
        let alert = try await call(server, token(.person), "trigger-alert")
        let personAlert = try #require(alert["alertId"] as? String)
        let dependentsAlert = try #require(try await call(server, token(.dependent), "trigger-alert")["alertId"] as? String)
        try await call(server, token(.stranger), "trigger-alert")
        try await call(server, spareA.token, "trigger-alert")
        try await call(server, token(.responder), "respond-to-alert", ["alertId": personAlert])
        try await call(server, token(.person), "respond-to-alert", ["alertId": dependentsAlert])
        try await call(server, token(.responder), "ping-dependent", ["dependentId": ids[.person] ?? ""])
        try await call(server, token(.person), "ping-dependent", ["dependentId": ids[.dependent] ?? ""])
        for (actor, text) in [(MatrixActor.person, documentText), (.stranger, "the stranger's document")] {
            try await call(
                server, token(actor), "set-document",
                [
                    "path": "users/\(ids[actor] ?? "")/notes/first", "data": ["note": ["string": text]],
                ])
        }
        let editorDraft = try await MatrixContent.make(server, editor: ids[.editor] ?? "")
        var roleRequest: String?
        if exposed.tables["contact_role_requests"] != nil {
            // The dependent asks to become the person's responder: a request the person answers.
            let asked = try await call(
                server, token(.dependent), "update-contact-roles",
                ["contactId": ids[.person] ?? "", "isResponder": true, "isDependent": true])
            roleRequest = (asked["pendingRequest"] as? [String: any Sendable])?["id"] as? String
            #expect(roleRequest != nil, "update-contact-roles gave no pending request: \(asked)")
        }
        return MatrixFixture(
            server: server, test: test, ids: ids, tokens: tokens, spareA: spareA.id, spareB: spareB.id, spareToken: spareA.token,
            personPhone: phones[.person] ?? "", personNote: note, documentText: documentText, personAlert: personAlert,
            personInvitation: try #require(pending["invitationId"] as? String), editorDraft: editorDraft, roleRequest: roleRequest)
    }
}

/// Content rows of every kind a policy tells apart, written with the service role: published,
/// draft and soft-deleted, each by the editor.
enum MatrixContent {
    /// Returns the id of the editor's draft location.
    static func make(_ server: TestServer, editor: String) async throws -> String {
        var draft = ""
        for table in ["locations", "events", "routes"] {
            for (status, deleted) in [("published", false), ("draft", false), ("published", true), ("archived", false)] {
                let id = UUID().uuidString.lowercased()
                var row: [String: any Sendable] = [
                    "id": id, "name": "\(table) \(status)\(deleted ? " deleted" : "")",
                    "slug": "matrix-\(id)", "status": status, "created_by": editor,
                ]
                if deleted { row["deleted_at"] = "2026-01-01T00:00:00Z" }
                let reply = try await server.request(
                    "POST", "/rest/v1/\(table)", apiKey: server.serviceKey, bearer: server.serviceKey,
                    body: try JSONSerialization.data(withJSONObject: row))
                #expect(reply.status == 201, "content \(table): \(reply.status) \(reply.text)")
                if table == "locations" && status == "draft" { draft = id }
            }
        }
        return draft
    }
}
