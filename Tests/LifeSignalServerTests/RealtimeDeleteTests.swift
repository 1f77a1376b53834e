import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Realtime DELETEs reach only subscribers who could read the row before it was deleted, and
/// carry only its primary key (issue 18 item 4; docs/security.md, "Realtime").
@Suite("/realtime/v1 deletes")
struct RealtimeDeleteTests {
    /// The people of a delete test: A (the owner of most rows), R (A's responder), D (A's
    /// dependent: a contact who may not read A's alerts), S (a stranger), E (someone with no
    /// relation, whose own `users` row is deleted), and the service role.
    struct Cast {
        let owner, responder, dependent, stranger, loner: IssuedSession
        let watchers: [DeleteWatcher]
    }

    static func cast(_ test: TestBackend, _ server: TestServer) async throws -> Cast {
        let owner = try await test.signIn("+15550001001")
        let responder = try await test.signIn("+15550001002")
        let dependent = try await test.signIn("+15550001003")
        let stranger = try await test.signIn("+15550001004")
        let loner = try await test.signIn("+15550001005")
        var watchers: [DeleteWatcher] = []
        for (name, person) in [("owner", owner), ("responder", responder), ("dependent", dependent), ("stranger", stranger), ("loner", loner)] {
            watchers.append(try await DeleteWatcher.open(name, token: person.accessToken, server: server))
        }
        watchers.append(try await DeleteWatcher.open("service role", token: server.serviceKey, server: server))
        return Cast(owner: owner, responder: responder, dependent: dependent, stranger: stranger, loner: loner, watchers: watchers)
    }

    /// Writes a marker and returns what each of `watchers` heard before it, by name.
    static func round(_ label: String, _ watchers: [DeleteWatcher], rows: DeleteFixtures) async throws -> [String: [DeletedRow]] {
        try await rows.marker(label)
        var heard: [String: [DeletedRow]] = [:]
        for watcher in watchers {
            heard[watcher.name] = try await watcher.deletesUntil(marker: label)
        }
        return heard
    }

    @Test("each delete reaches exactly those whose GET could read the row before, with only its key", arguments: Engine.allCases)
    func deletesReachOnlyReaders(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let cast = try await Self.cast(test, server)
        let rows = DeleteFixtures(database: test.backend.database, now: test.clock.now)
        let (responderSide, ownerSideOfResponder) = try await rows.link(responder: cast.responder, dependent: cast.owner)
        let (ownerSideOfDependent, dependentSide) = try await rows.link(responder: cast.owner, dependent: cast.dependent)
        let alert = try await rows.alert(of: cast.owner)
        let dependentsAlert = try await rows.alert(of: cast.dependent)
        let response = try await rows.response(to: alert, by: cast.responder)
        let ping = try await rows.ping(from: cast.responder, to: cast.owner)
        let document = try await rows.document(of: cast.owner)
        let checkIn = try await rows.checkIn(of: cast.owner)
        let lonerRow = DeletedRow("users", cast.loner.user.id.description)
        // Relations last: while a row is delivered, the relations that let people read it
        // still stand (a relation deleted with the row is test `accountDeletion`'s case).
        let deletions = [
            response, alert, dependentsAlert, ping, document, checkIn, lonerRow,
            responderSide, ownerSideOfResponder, ownerSideOfDependent, dependentSide,
        ]

        // Who may read what, asked of the server itself before anything is deleted.
        var readers: [DeletedRow: Set<String>] = [:]
        for row in deletions {
            for watcher in cast.watchers {
                if try await row.readable(with: watcher.token, server: server) { readers[row, default: []].insert(watcher.name) }
            }
        }
        // Whatever else the model says, these hold: nobody reads a stranger's way in, each
        // owns what they own, a dependent is not a responder, and the service role reads all.
        #expect(readers.values.allSatisfy { !$0.contains("stranger") })
        for row in [alert, ping, document, checkIn, ownerSideOfResponder, ownerSideOfDependent] {
            #expect(readers[row]?.contains("owner") == true, "\(row)")
        }
        for row in [response, ping, responderSide, alert] { #expect(readers[row]?.contains("responder") == true, "\(row)") }
        #expect(readers[lonerRow] == ["loner", "service role"])
        #expect(readers[document] == ["owner", "service role"])
        #expect(readers[alert]?.contains("dependent") == false)
        #expect(readers[dependentsAlert]?.contains("responder") == false)
        #expect(deletions.allSatisfy { readers[$0]?.contains("service role") == true })

        // One delete a round, so each is judged while the relations that let people read it stand.
        for (index, row) in deletions.enumerated() {
            try await rows.delete(row)
            let heard = try await Self.round("Round \(index)", cast.watchers, rows: rows)
            for watcher in cast.watchers {
                let expected = readers[row]?.contains(watcher.name) == true ? [row] : []
                #expect(heard[watcher.name] == expected, "\(watcher.name) after deleting \(row)")
            }
        }
        for watcher in cast.watchers { await watcher.socket.close() }
    }

    @Test("an account deletion tells each person only of their own rows, and strangers nothing", arguments: Engine.allCases)
    func accountDeletion(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let cast = try await Self.cast(test, server)
        let rows = DeleteFixtures(database: test.backend.database, now: test.clock.now)
        let (responderSide, ownerSideOfResponder) = try await rows.link(responder: cast.responder, dependent: cast.owner)
        let (ownerSideOfDependent, dependentSide) = try await rows.link(responder: cast.owner, dependent: cast.dependent)
        let alert = try await rows.alert(of: cast.owner)
        let response = try await rows.response(to: alert, by: cast.responder)
        let ping = try await rows.ping(from: cast.responder, to: cast.owner)
        let document = try await rows.document(of: cast.owner)
        let checkIn = try await rows.checkIn(of: cast.owner)
        _ = try await rows.alert(of: cast.dependent)

        let deleted = try await server.request("POST", "/functions/v1/delete-user-account", bearer: cast.owner.accessToken)
        #expect(deleted.status == 200)
        // A's own socket is not judged: whether it still hears anything depends on A's
        // session, which ended with the account.
        let heard = try await Self.round("After", cast.watchers.filter { $0.name != "owner" }, rows: rows)
        // Each hears of their own side of the relation and of their own rows that went with
        // it. A's own rows that others read through the relation (A's `users` row, A's alert)
        // are judged after the relation is gone, so those others are not told: the documented
        // edge.
        #expect(Set(heard["responder"] ?? []) == [responderSide, response, ping])
        #expect(heard["responder"]?.count == 3)
        #expect(heard["dependent"] == [dependentSide])
        #expect(heard["stranger"] == [])
        #expect(heard["loner"] == [])
        let everything: Set<DeletedRow> = [
            responderSide, ownerSideOfResponder, ownerSideOfDependent, dependentSide, alert, response,
            ping, document, checkIn, DeletedRow("users", cast.owner.user.id.description),
        ]
        #expect(Set(heard["service role"] ?? []) == everything)
        #expect(heard["service role"]?.count == everything.count)
        for watcher in cast.watchers { await watcher.socket.close() }
    }

    @Test("a delete logged without its old row (before migration 200) reaches only the service role", arguments: Engine.allCases)
    func deleteWithoutOldRow(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let owner = try await test.signIn("+15550001001")
        let watchers = [
            try await DeleteWatcher.open("owner", token: owner.accessToken, server: server),
            try await DeleteWatcher.open("service role", token: server.serviceKey, server: server),
        ]
        let path = "users/\(owner.user.id.description)/notes/old"
        // What migration 160's trigger wrote for a delete: the key alone.
        try await test.backend.database.query(
            """
            INSERT INTO lifesignal_realtime_changes (table_name, kind, key, old_key, committed_at)
            VALUES ('documents', 'DELETE', NULL, \(SQLValue.json("{\"path\":\"\(path)\"}")), \(SQLValue.text(Timestamp.format(test.clock.now))))
            """)
        let heard = try await Self.round("Old", watchers, rows: DeleteFixtures(database: test.backend.database, now: test.clock.now))
        #expect(heard["owner"] == [])
        #expect(heard["service role"] == [DeletedRow("documents", path)])
        for watcher in watchers { await watcher.socket.close() }
    }

    @Test("a delete's filter is matched against the kept columns; alike subscribers share one check", arguments: Engine.allCases)
    func filtersAndGroups(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let owner = try await test.signIn("+15550001001")
        let stranger = try await test.signIn("+15550001004")
        let rows = DeleteFixtures(database: test.backend.database, now: test.clock.now)
        let mine = "owner_id=eq.\(owner.user.id.description)"
        // Three channels as the owner with one filter on each of two sockets, two as the
        // stranger with that same filter, and one as the owner whose filter names a column
        // the log does not keep.
        var ownerSockets: [RealtimeTestSocket] = []
        for _ in 0..<2 {
            let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
            for index in 0..<3 {
                #expect(
                    try await RealtimeTests.join(
                        socket, topic: "realtime:d\(index)", table: "documents", event: "DELETE",
                        filters: [mine], token: owner.accessToken, ref: "d\(index)") == "ok")
            }
            ownerSockets.append(socket)
        }
        let strangerSocket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        for index in 0..<2 {
            #expect(
                try await RealtimeTests.join(
                    strangerSocket, topic: "realtime:s\(index)", table: "documents", event: "DELETE",
                    filters: [mine], token: stranger.accessToken, ref: "s\(index)") == "ok")
        }
        #expect(
            try await RealtimeTests.join(
                strangerSocket, topic: "realtime:own", table: "documents", event: "DELETE",
                filters: ["owner_id=eq.\(stranger.user.id.description)"], token: stranger.accessToken, ref: "own") == "ok")
        let unkept = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        #expect(
            try await RealtimeTests.join(
                unkept, topic: "realtime:u", table: "documents", event: "DELETE",
                filters: ["parent=like.users*"], token: owner.accessToken, ref: "u") == "ok")
        #expect(
            try await RealtimeTests.join(
                unkept, topic: "realtime:own", table: "documents", event: "DELETE",
                filters: [mine], token: owner.accessToken, ref: "own") == "ok")

        let document = try await rows.document(of: owner)
        let strangers = try await rows.document(of: stranger)
        let before = try await RealtimeTests.rowReads(server)
        try await rows.delete(document)
        for socket in ownerSockets {
            var topics: Set<String> = []
            for _ in 0..<3 {
                let frame = try await socket.nextObject(where: { RealtimeTests.change($0) != nil })
                topics.insert(frame["topic"] as? String ?? "")
                let old = RealtimeTests.change(frame)?["old_record"] as? [String: any Sendable]
                #expect(old?["path"] as? String == "users/\(owner.user.id.description)/notes/first")
                #expect(old?.count == 1)
            }
            #expect(topics.count == 3)
        }
        // One check for the owner's six channels and one for the stranger's two; the stranger's
        // own filter and the unkept column's channel make two more (four groups in all; the
        // owner's `own` channel shares the six's group).
        let unkeptFirst = try await unkept.nextObject(where: { RealtimeTests.change($0) != nil })
        #expect(unkeptFirst["topic"] as? String == "realtime:own")
        #expect(try await RealtimeTests.rowReads(server) - before == 4)
        // Had the filter on a column the log did not keep matched, its frame would come next
        // to the first (before or after it), not the next delete's.
        try await rows.delete(try await rows.document(of: owner, named: "second"))
        let unkeptSecond = try await unkept.nextObject(where: { RealtimeTests.change($0) != nil })
        #expect(unkeptSecond["topic"] as? String == "realtime:own")
        #expect(
            (RealtimeTests.change(unkeptSecond)?["old_record"] as? [String: any Sendable])?["path"] as? String
                == "users/\(owner.user.id.description)/notes/second")

        // The stranger's first delete is their own document's: the owner's, which their filter
        // names, never reached them.
        try await rows.delete(strangers)
        let strangerFrame = try await strangerSocket.nextObject(where: { RealtimeTests.change($0) != nil })
        #expect(strangerFrame["topic"] as? String == "realtime:own")
        #expect(
            (RealtimeTests.change(strangerFrame)?["old_record"] as? [String: any Sendable])?["path"] as? String
                == "users/\(stranger.user.id.description)/notes/first")
        for socket in ownerSockets + [strangerSocket, unkept] { await socket.close() }
    }
}
