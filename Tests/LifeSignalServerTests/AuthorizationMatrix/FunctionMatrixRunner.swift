import Foundation
import LifeSignalTestSupport
import Testing

/// The function cells: each actor calls every ``FunctionModel`` case against the person.
/// Refusals (and harmless calls) run at once and must leave the watched rows as they were;
/// allowed calls that change the person's data run after them, one by one. No reply to anyone
/// may carry what the model does not show them.
struct FunctionMatrixRunner: Sendable {
    let fixture: MatrixFixture
    let targets: FunctionTargets
    /// Per actor, text no reply to them may hold.
    let secrets: [MatrixActor: [String]]

    static func prepare(_ fixture: MatrixFixture, snapshot: MatrixSnapshot) async throws -> FunctionMatrixRunner {
        let person = fixture.id(.person) ?? ""
        // The person's screen shows the code (consent: a short-lived code, `get-qr-code`); a
        // server without it has one code for good.
        let shown = try await fixture.send(.person, "POST", "/functions/v1/get-qr-code", json: [String: String]())
        let stored = snapshot.rows["users"]?.first { $0["id"] as? String == person }?["qr_code_id"] as? String
        let qrCode = try #require(shown.json?["qrCodeId"] as? String ?? stored, "no QR code for the person")
        let notification = try #require(snapshot.rows["notifications"]?.first { $0["user_id"] as? String == person }?["id"] as? String)
        let targets = FunctionTargets(
            person: person, responder: fixture.id(.responder) ?? "", editor: fixture.id(.editor) ?? "", alert: fixture.personAlert,
            invitation: fixture.personInvitation, notification: notification, draft: fixture.editorDraft, qrCode: qrCode,
            device: MatrixFixture.device(of: "person"),
            roleRequest: fixture.roleRequest)
        var secrets: [MatrixActor: [String]] = [:]
        for actor in MatrixActor.allCases where actor != .person && actor != .service {
            var hidden = [qrCode, fixture.documentText]
            if actor != .responder { hidden.append(fixture.personNote) }
            if actor != .editor { hidden.append(targets.editor) }
            if ![.responder, .dependent].contains(actor) { hidden.append(String(fixture.personPhone.dropFirst())) }
            secrets[actor] = hidden
        }
        return FunctionMatrixRunner(fixture: fixture, targets: targets, secrets: secrets)
    }

    func run() async -> MatrixResult {
        var result = MatrixResult()
        var cases = FunctionModel.cases
        if targets.roleRequest == nil {
            cases.removeAll { $0.name.hasSuffix("-role-request") }
            result.cell("accept/decline/cancel-role-request", "the fixture has no role request: the server does not expose contact_role_requests")
        }
        // Calls that watch nothing run at once; those that must leave rows as they were run
        // one by one, so a call that wrongly changes them is the one blamed; then the allowed
        // calls that change the person's data, in the model's order.
        var reads: [@Sendable () async -> MatrixResult] = []
        var watched: [(FunctionCase, MatrixActor)] = []
        var later: [(FunctionCase, MatrixActor)] = []
        for item in cases {
            for actor in FunctionModel.actors(for: item) {
                if item.allowed.contains(actor) && item.changesState {
                    later.append((item, actor))
                } else if item.watch(targets).isEmpty || item.allowed.contains(actor) {
                    reads.append(MatrixResult.guarded("\(item.name) × \(actor)") { try await self.cell(item, actor) })
                } else {
                    watched.append((item, actor))
                }
            }
        }
        result.add(await MatrixResult.concurrently(reads))
        for (item, actor) in watched + later {
            result.add(await MatrixResult.guarded("\(item.name) × \(actor)") { try await self.cell(item, actor) }())
        }
        return result
    }

    func watched(_ item: FunctionCase) async throws -> String {
        var text = ""
        for (table, query) in item.watch(targets) {
            let rows = try await MatrixSnapshot.read(fixture.server, table, query: "select=*&\(query)")
            text += "\(table): " + rows.map { MatrixSnapshot.text(row: $0) }.joined(separator: " | ") + "\n"
        }
        return text
    }

    func cell(_ item: FunctionCase, _ actor: MatrixActor) async throws -> MatrixResult {
        var result = MatrixResult()
        let body = item.body(targets)
        let aim: String? = body["path"] as? String ?? body["collection"] as? String
        let label = "\(item.name)\(aim.map { " \($0)" } ?? "") × \(actor)"
        let before = try await watched(item)
        let reply = try await fixture.send(actor, "POST", "/functions/v1/\(item.name)", json: item.body(targets))
        let after = try await watched(item)
        // What the caller sent is no leak when an error names it back.
        let sent = String(decoding: try JSONSerialization.data(withJSONObject: item.body(targets)), as: UTF8.self)
        let leaked = (secrets[actor] ?? []).filter { reply.text.localizedCaseInsensitiveContains($0) && !sent.localizedCaseInsensitiveContains($0) }
        var problems: [String] = []
        if !leaked.isEmpty { problems.append("the reply holds \(leaked)") }
        if item.allowed.contains(actor) {
            if !((200..<300).contains(reply.status) || reply.status == 409) { problems.append("refused: \(reply.status) \(reply.text.prefix(200))") }
            if let keys = item.replyKeys, let json = reply.json, !Set(json.keys).isSubset(of: keys) {
                problems.append("the reply shows \(Set(json.keys).subtracting(keys).sorted()) besides \(keys.sorted())")
            }
        } else {
            let refused =
                [401, 403, 404].contains(reply.status)
                || ((200..<300).contains(reply.status) && reply.json.map { item.emptyIsRefusal?($0) ?? false } == true)
            if !refused && !item.harmless.contains(actor) { problems.append("allowed: \(reply.status) \(reply.text.prefix(200))") }
            if (500..<600).contains(reply.status) { problems.append("\(reply.status) \(reply.text.prefix(200))") }
            if after != before { problems.append("changed the person's data:\n  before \(before)  after  \(after)") }
        }
        result.cell(label, problems.isEmpty ? nil : problems.joined(separator: "; "))
        return result
    }
}
