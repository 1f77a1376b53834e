import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Issue 18 item 7: the authorization matrix. For every exposed table × verb (select, count,
/// insert, upsert, PUT, PATCH, DELETE) × actor (anon, stranger, dependent, responder, the
/// person, an editor, the service role), over HTTP, the expected answer and columns come from
/// ``AccessModel`` (docs/security.md's model as data) and every refusal is checked against a
/// service-role read; then every function that takes another person's id
/// (``FunctionModel``), and every Realtime INSERT, UPDATE and DELETE. One server per engine,
/// one fixture; the size it ran is printed.
@Suite("authorization matrix")
struct AuthorizationMatrixTests {
    @Test("every table × verb × actor, every function against the person, every Realtime event, as the model says", arguments: Engine.allCases)
    func matrix(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: MatrixFixture.otps))
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let exposed = try await ExposedTables.load(server)
        Self.checkCoverage(exposed)

        let fixture = try await MatrixFixture.make(test, server, exposed: exposed)
        let snapshot = try await MatrixSnapshot.take(server, tables: exposed)
        // The relations the cells rely on: the responder looks after the person, the person
        // after the dependent, and nobody else after anybody.
        let (person, responder, dependent) = (fixture.id(.person) ?? "", fixture.id(.responder) ?? "", fixture.id(.dependent) ?? "")
        #expect(snapshot.dependentsOf == [responder: [person], person: [dependent]], "\(snapshot.dependentsOf)")

        // Each person may make 200 requests in a burst, refilled by the backend's clock: a
        // phase's worth is well inside it, and three minutes between phases refill it.
        let clock = test.clock
        let rest = await RESTMatrixRunner(fixture: fixture, exposed: exposed, snapshot: snapshot, refill: { clock.advance(by: 180) }).run()
        test.clock.advance(by: 180)
        let realtime = try await RealtimeMatrixRunner(fixture: fixture, exposed: exposed).run()
        test.clock.advance(by: 180)
        let afterRealtime = try await MatrixSnapshot.take(server, tables: exposed)
        let functions = await (try await FunctionMatrixRunner.prepare(fixture, snapshot: afterRealtime)).run()

        let tables = AccessModel.tables.filter { exposed.tables[$0.name] != nil }.count
        let published = AccessModel.tables.filter { $0.realtime && exposed.tables[$0.name] != nil }.count
        print(
            """
            Authorization matrix on \(engine): \(rest.cells + functions.cells + realtime.cells) cells run — \
            REST \(rest.cells) (\(tables) tables × \(Verb.allCases.count) verbs × \(MatrixActor.allCases.count) actors, \
            with the select=* and hidden-column checks), functions \(functions.cells) (\(FunctionModel.cases.count) cases × \
            up to \(MatrixActor.allCases.count) actors), Realtime \(realtime.cells) (\(published) tables × 3 events × \
            \(MatrixActor.allCases.count) actors, with the old_record checks); \
            \(rest.failures.count + functions.failures.count + realtime.failures.count) broke the model
            """)
        rest.report("REST \(engine)")
        realtime.report("Realtime \(engine)")
        functions.report("functions \(engine)")
    }

    /// Every table the server exposes is in the model, and the reverse; the model's Realtime
    /// flags are the tables the server publishes. A new table cannot slip past.
    static func checkCoverage(_ exposed: ExposedTables) {
        let modelled = Set(AccessModel.tables.map(\.name))
        let served = Set(exposed.tables.keys)
        #expect(
            served.subtracting(modelled).isEmpty,
            "exposed through /rest/v1 but not in AccessModel: \(served.subtracting(modelled).sorted()) — add them to the model")
        #expect(modelled.subtracting(served).isEmpty, "in AccessModel but not exposed: \(modelled.subtracting(served).sorted())")
        let published = Set(ChangeCapture.publishedTables.map(\.table))
        for model in AccessModel.tables where served.contains(model.name) {
            #expect(model.realtime == published.contains(model.name), "\(model.name): Realtime publishes it: \(published.contains(model.name))")
        }
        for table in exposed.tables.values { #expect(!table.key.isEmpty, "\(table.name) has no primary key in the OpenAPI description") }
    }
}
