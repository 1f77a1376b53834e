import Foundation
import Testing

@testable import SupabaseREST

/// Storage golden wire tests: method, URL escaping, headers, body; documented replies and
/// every kind of bad answer.
@Suite struct StorageTests {
    @Test func uploadSendsRawBytesWithTypeCacheAndUpsertHeaders() async throws {
        let transport = RecordingTransport(body: #"{"Key":"avatars/u1/a b+c%.png"}"#)
        let client = makeClient(transport)
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x00])
        let reply = try await client.storage.from("avatars")
            .upload("u1/a b+c%.png", data: bytes, options: FileOptions(cacheControl: "60", contentType: "image/png"))

        let request = try #require(transport.last)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "https://project.supabase.co/storage/v1/object/avatars/u1/a%20b%2Bc%25.png")
        #expect(
            request.headers.lowercasedDictionary == [
                "apikey": anonKey, "authorization": "Bearer \(anonKey)", "x-client-info": "supabase-swift/2.55.1",
                "content-type": "image/png", "cache-control": "max-age=60", "x-upsert": "false",
            ])
        #expect(request.body == bytes)
        #expect(reply == (try JSONDecoder().decode(FileUploadResponse.self, from: Data(#"{"Key":"avatars/u1/a b+c%.png"}"#.utf8))))
        #expect(reply.path == "u1/a b+c%.png")
        #expect(reply.fullPath == "avatars/u1/a b+c%.png")
    }

    @Test func updateIsPutAndUpsertDefaultsApply() async throws {
        let transport = RecordingTransport(body: #"{"Key":"docs/x"}"#)
        let client = makeClient(transport)
        try await client.storage.from("docs").update("x", data: Data("hi".utf8), options: FileOptions(upsert: true))
        let request = try #require(transport.last)
        #expect(request.method == .put)
        #expect(request.url.path == "/storage/v1/object/docs/x")
        #expect(request.headers["Content-Type"] == "application/octet-stream")
        #expect(request.headers["Cache-Control"] == "max-age=3600")
        #expect(request.headers["x-upsert"] == "true")
    }

    @Test func downloadUsesTheSessionTokenAndReturnsBytes() async throws {
        let transport = RecordingTransport { _, _ in HTTPResponse(status: 200, headers: ["Content-Type": "image/png"], body: Data([1, 2, 3])) }
        let client = makeClient(transport)
        try await client.auth.setSession(try makeSession(access: "user-jwt", expiresIn: 3600))
        let bytes = try await client.storage.from("avatars").download(path: "u1/photo (1)#?.png")
        #expect(bytes == Data([1, 2, 3]))
        let request = try #require(transport.last)
        #expect(request.method == .get)
        #expect(request.url.absoluteString == "https://project.supabase.co/storage/v1/object/avatars/u1/photo%20%281%29%23%3F.png")
        #expect(request.headers["Authorization"] == "Bearer user-jwt")
        #expect(request.body == nil)
    }

    @Test func removeSendsPrefixesAndReturnsRemovedNames() async throws {
        let transport = RecordingTransport(body: #"[{"name":"u1/a.png","bucket_id":"avatars"}]"#)
        let removed = try await makeClient(transport).storage.from("avatars").remove(paths: ["u1/a.png", "u1/missing.png"])
        #expect(removed == ["u1/a.png"])
        let request = try #require(transport.last)
        #expect(request.method == .delete)
        #expect(request.url.absoluteString == "https://project.supabase.co/storage/v1/object/avatars")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(String(decoding: request.body ?? Data(), as: UTF8.self) == #"{"prefixes":["u1/a.png","u1/missing.png"]}"#)
    }

    @Test func publicURLIsBuiltWithoutARequest() throws {
        let transport = RecordingTransport()
        let files = makeClient(transport).storage.from("public bucket")
        #expect(
            try files.getPublicURL(path: "u1/a b.png").absoluteString
                == "https://project.supabase.co/storage/v1/object/public/public%20bucket/u1/a%20b.png")
        #expect(
            try files.getPublicURL(path: "x.png", download: true).absoluteString
                == "https://project.supabase.co/storage/v1/object/public/public%20bucket/x.png?download=")
        #expect(throws: TransportError.self) { try makeClient(transport).storage.from("").getPublicURL(path: "x") }
        #expect(throws: TransportError.self) { try files.getPublicURL(path: "") }
        #expect(transport.requests.isEmpty)
    }

    @Test func storageErrorDocumentsAreDecoded() async throws {
        let transport = RecordingTransport { _, _ in
            jsonResponse(409, #"{"statusCode":"409","error":"Duplicate","message":"The resource already exists"}"#)
        }
        await #expect(throws: StorageError(statusCode: "409", error: "Duplicate", message: "The resource already exists")) {
            try await makeClient(transport).storage.from("b").upload("x", data: Data())
        }
        // Older Storage versions send the status as a number.
        let numeric = RecordingTransport { _, _ in jsonResponse(404, #"{"statusCode":404,"error":"not_found","message":"Object not found"}"#) }
        await #expect(throws: StorageError(statusCode: "404", error: "not_found", message: "Object not found")) {
            try await makeClient(numeric).storage.from("b").download(path: "x")
        }
    }

    @Test func nonJSONAndEmptyErrorBodiesKeepTheStatusAndText() async throws {
        let html = RecordingTransport { _, _ in HTTPResponse(status: 502, body: Data("<html>Bad gateway</html>".utf8)) }
        await #expect(throws: StorageError(statusCode: "502", error: nil, message: "<html>Bad gateway</html>")) {
            try await makeClient(html, retry: .none).storage.from("b").upload("x", data: Data())
        }
        let empty = RecordingTransport { _, _ in HTTPResponse(status: 500) }
        await #expect(throws: StorageError(statusCode: "500", error: nil, message: "HTTP 500")) {
            try await makeClient(empty).storage.from("b").remove(paths: ["x"])
        }
    }

    @Test func undecodableSuccessBodiesAreResponseDecodingErrors() async throws {
        let truncated = RecordingTransport(body: #"{"Key":"b/x"#)
        await #expect(throws: ResponseDecodingError.self) {
            try await makeClient(truncated).storage.from("b").upload("x", data: Data())
        }
        let html = RecordingTransport(body: "<html>ok</html>")
        await #expect {
            try await makeClient(html).storage.from("b").remove(paths: ["x"])
        } throws: { error in
            guard let error = error as? ResponseDecodingError else { return false }
            return error.status == 200 && error.body == Data("<html>ok</html>".utf8)
        }
    }

    @Test func uploadsAreNotRetriedButDownloadsAre() async throws {
        let transport = RecordingTransport { _, _ in HTTPResponse(status: 503) }
        let client = makeClient(transport)
        await #expect(throws: StorageError.self) { try await client.storage.from("b").upload("x", data: Data()) }
        #expect(transport.requests.count == 1)
        await #expect(throws: StorageError.self) { try await client.storage.from("b").download(path: "x") }
        #expect(transport.requests.count == 1 + 4)
    }

    @Test func aHangingStorageServerTimesOut() async throws {
        let transport = RecordingTransport { _, _ in
            try await Task.sleep(for: .seconds(30))
            return HTTPResponse(status: 200)
        }
        let client = makeClient(transport, retry: .none, timeout: .milliseconds(100))
        let started = ContinuousClock.now
        await #expect(throws: TransportError.timedOut(after: .milliseconds(100))) {
            try await client.storage.from("b").download(path: "x")
        }
        #expect(ContinuousClock.now - started < .seconds(30), "a bound against a hang, not a speed check")
    }
}
