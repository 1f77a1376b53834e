import Foundation
import Testing

@testable import SupabaseREST

/// Decoding of documented PostgREST responses and error bodies.
@Suite struct PostgrestResponseTests {
    struct Row: Decodable, Equatable {
        var id: Int
        var name: String
        var price: Double
        var created_at: Date
        var day: Date
        var deleted_at: Date?
    }

    @Test func decodesRowsWithPostgresTimestampSpellings() async throws {
        let body = """
            [{"id":1,"name":"a","price":12.50,"created_at":"2024-06-05T12:00:00+00:00","day":"2024-06-05","deleted_at":null},
             {"id":2,"name":"b","price":1,"created_at":"2024-06-05T12:00:00.123456+02:00","day":"2024-06-05","deleted_at":"2024-06-05T12:00:00"}]
            """
        let transport = RecordingTransport(body: body)
        let response: PostgrestResponse<[Row]> = try await makeClient(transport).from("t").select().execute()
        let rows = response.value
        #expect(rows.count == 2)
        #expect(rows[0].created_at == Date(timeIntervalSince1970: 1_717_588_800))
        #expect(rows[0].day == Date(timeIntervalSince1970: 1_717_545_600))
        #expect(rows[0].deleted_at == nil)
        let second = rows[1].created_at.timeIntervalSince1970
        #expect(abs(second - (1_717_588_800 - 7200 + 0.123456)) < 0.000_01)
        #expect(rows[1].deleted_at == Date(timeIntervalSince1970: 1_717_588_800))
        #expect(response.status == 200)
        #expect(response.count == nil)
        #expect(response.data == Data(body.utf8))
    }

    @Test func singleDecodesAnObject() async throws {
        let transport = RecordingTransport(
            body: #"{"id":1,"name":"a","price":2,"created_at":"2024-06-05T12:00:00Z","day":"2024-06-05"}"#)
        let row: Row = try await makeClient(transport).from("t").select().eq("id", value: 1).single().execute().value
        #expect(row.id == 1)
    }

    @Test func errorDocumentThrowsPostgrestError() async throws {
        let transport = RecordingTransport { _, _ in
            jsonResponse(
                406,
                #"{"code":"PGRST116","details":"The result contains 0 rows","hint":null,"message":"Cannot coerce the result to a single JSON object"}"#
            )
        }
        await #expect(
            throws: PostgrestError(
                code: "PGRST116", message: "Cannot coerce the result to a single JSON object",
                details: "The result contains 0 rows", hint: nil)
        ) {
            try await makeClient(transport).from("t").select().single().execute()
        }
    }

    @Test func uniqueViolationAndGatewayErrors() async throws {
        let conflict = RecordingTransport { _, _ in
            jsonResponse(
                409,
                #"{"code":"23505","details":"Key (slug)=(lyon) already exists.","hint":null,"message":"duplicate key value violates unique constraint \"locations_slug_key\""}"#
            )
        }
        do {
            try await makeClient(conflict).from("t").insert(["slug": "lyon"]).execute()
            Issue.record("expected an error")
        } catch let error as PostgrestError {
            #expect(error.code == "23505")
            #expect(error.detail == "Key (slug)=(lyon) already exists.")
        }

        let gateway = RecordingTransport { _, _ in
            jsonResponse(401, #"{"message":"Invalid API key","hint":"Double check your Supabase `anon` or `service_role` API key."}"#)
        }
        await #expect(
            throws: PostgrestError(
                message: "Invalid API key", hint: "Double check your Supabase `anon` or `service_role` API key.")
        ) {
            try await makeClient(gateway).from("t").select().execute()
        }
    }

    @Test func nonJSONErrorBodyThrowsHTTPError() async throws {
        let transport = RecordingTransport { _, _ in
            HTTPResponse(status: 502, headers: ["Content-Type": "text/html"], body: Data("<html>Bad gateway</html>".utf8))
        }
        do {
            try await makeClient(transport).from("t").select().execute()
            Issue.record("expected an error")
        } catch let error as HTTPError {
            #expect(error.status == 502)
            #expect(error.data == Data("<html>Bad gateway</html>".utf8))
        }
    }

    @Test func nonJSONOrTruncatedSuccessBodiesThrowResponseDecodingError() async throws {
        for body in ["<html>", #"[{"id":1,"na"#, ""] {
            let transport = RecordingTransport(body: body)
            do {
                let _: [Row] = try await makeClient(transport).from("t").select().execute().value
                Issue.record("expected an error for \(body)")
            } catch let error as ResponseDecodingError {
                #expect(error.status == 200)
                #expect(error.body == Data(body.utf8))
                #expect(error.type == "Array<Row>")
            }
        }
    }

    @Test func voidExecuteIgnoresEmptyBodies() async throws {
        let transport = RecordingTransport { _, _ in
            HTTPResponse(status: 204, headers: ["Content-Range": "0-0/*"], body: Data())
        }
        let response = try await makeClient(transport).from("t").update(["a": 1], returning: .minimal)
            .eq("id", value: 1).execute()
        #expect(response.status == 204)
        #expect(response.count == nil)
        #expect(response.response.headers["content-range"] == "0-0/*")
    }
}
