import Foundation
import Testing

@testable import FirebaseREST

/// Storage v0: exact object-path encoding, the `Firebase` auth scheme, metadata and errors.
@Suite struct StorageTests {
    static let base = "https://firebasestorage.googleapis.com/v0/b/p.appspot.com/o"
    let metadata =
        #"{"name":"avatars/u 1+x.jpg","bucket":"p.appspot.com","generation":"1714566600123456","metageneration":"1","contentType":"image/jpeg","size":"12345","md5Hash":"abc==","downloadTokens":"tok1,tok2"}"#

    func client(_ transport: any FirebaseHTTPTransport, timeout: Duration = .seconds(5)) -> FirebaseStorageClient {
        FirebaseStorageClient(bucket: "p.appspot.com", tokenProvider: StaticIDTokenProvider("ID"), options: options(transport, timeout: timeout))
    }

    @Test func uploadSendsRawBytesAndEncodedName() async throws {
        let transport = RecordingTransport(body: metadata)
        let bytes = Data([0xFF, 0xD8, 0x00])
        let result = try await client(transport).upload(bytes, to: "avatars/u 1+x.jpg", contentType: "image/jpeg")
        let request = try #require(transport.last)
        #expect(request.method == .post)
        #expect(request.rawURL == Self.base + "?name=avatars%2Fu%201%2Bx.jpg")
        #expect(request.header("Authorization") == "Firebase ID")
        #expect(request.header("Content-Type") == "image/jpeg")
        #expect(request.body == bytes)
        #expect(result.byteCount == 12345 && result.downloadTokens == "tok1,tok2" && result.generation == "1714566600123456")
    }

    @Test func downloadMetadataDelete() async throws {
        let transport = RecordingTransport { request, _ in
            request.rawURL.hasSuffix("alt=media") ? response(200, "BYTES") : response(200, #"{"name":"a/b","bucket":"p.appspot.com","size":"5"}"#)
        }
        let storage = client(transport)
        let path = "users/u1/photo (1)&=?#%.png"
        let encoded = "users%2Fu1%2Fphoto%20%281%29%26%3D%3F%23%25.png"
        #expect(try await storage.download(path) == Data("BYTES".utf8))
        #expect(transport.requests[0].method == .get)
        #expect(transport.requests[0].rawURL == Self.base + "/" + encoded + "?alt=media")
        #expect(try await storage.metadata(path).byteCount == 5)
        #expect(transport.requests[1].rawURL == Self.base + "/" + encoded)
        try await storage.delete(path)
        #expect(transport.requests[2].method == .delete)
        #expect(transport.requests[2].rawURL == Self.base + "/" + encoded)
        #expect(transport.requests.allSatisfy { $0.header("authorization") == "Firebase ID" })
        #expect(
            try storage.downloadURL(for: "a/b", token: "t+1").absoluteString == Self.base + "/a%2Fb?alt=media&token=t%2B1")
    }

    @Test func emulatorBase() async throws {
        let transport = RecordingTransport(body: metadata)
        let storage = FirebaseStorageClient(
            bucket: "demo.appspot.com", baseURL: URL(string: "http://localhost:9199")!, tokenProvider: StaticIDTokenProvider(nil),
            options: options(transport))
        _ = try await storage.metadata("x")
        #expect(transport.last?.rawURL == "http://localhost:9199/v0/b/demo.appspot.com/o/x")
        #expect(transport.last?.header("Authorization") == nil)
    }

    @Test(arguments: [
        (403, FirebaseStorageError.Kind.unauthorized), (404, .objectNotFound), (401, .unauthenticated),
        (412, .preconditionFailed), (429, .quotaExceeded), (503, .serverError), (418, .other),
    ])
    func errors(status: Int, kind: FirebaseStorageError.Kind) async throws {
        let transport = RecordingTransport(status: status, body: #"{"error":{"code":\#(status),"message":"Nope."}}"#)
        await #expect(throws: FirebaseStorageError(kind: kind, message: "Nope.", httpStatus: status)) {
            try await client(transport).delete("a")
        }
    }

    @Test func badInput() async throws {
        await #expect(throws: FirebaseStorageError.self) { _ = try await client(RecordingTransport()).download("") }
        await #expect(throws: FirebaseDecodingError.self) {
            _ = try await client(RecordingTransport(body: #"{"name":"a","buc"#)).metadata("a")
        }
        await #expect(throws: FirebaseStorageError(kind: .serverError, message: "oops", httpStatus: 500)) {
            _ = try await client(RecordingTransport(status: 500, body: "oops")).download("a")
        }
        await #expect(throws: FirebaseTransportError.timedOut(after: .milliseconds(100))) {
            _ = try await client(HangingTransport(), timeout: .milliseconds(100)).download("a")
        }
    }
}
