import Foundation
import Testing

@testable import FirebaseREST

/// The complete header set of each service's requests: nothing missing, nothing extra (an ID
/// token must never reach Identity Toolkit's key-authenticated calls, a GET carries no
/// `Content-Type`, Storage uses the `Firebase` scheme).
@Suite struct HeaderSetTests {
    func lowercased(_ request: FirebaseHTTPRequest?) -> [String: String] {
        request?.headers.lowercasedDictionary ?? [:]
    }

    @Test func identityToolkitAndSecureToken() async throws {
        let transport = RecordingTransport(
            body:
                #"{"idToken":"I","refreshToken":"R","expiresIn":"3600","localId":"u","id_token":"I","refresh_token":"R","expires_in":"3600","token_type":"Bearer","user_id":"u","project_id":"p"}"#
        )
        let auth = IdentityToolkitClient(apiKey: "KEY", options: options(transport))
        _ = try await auth.signIn(email: "a@b.c", password: "p")
        #expect(lowercased(transport.last) == ["content-type": "application/json"])
        _ = try await auth.refresh(refreshToken: "R")
        #expect(lowercased(transport.last) == ["content-type": "application/x-www-form-urlencoded"])
        #expect(String(decoding: transport.last?.body ?? Data(), as: UTF8.self) == "grant_type=refresh_token&refresh_token=R")
    }

    @Test func additionalHeadersAreAddedToEveryService() async throws {
        let transport = RecordingTransport(body: #"{"idToken":"I","refreshToken":"R","expiresIn":"3600","localId":"u"}"#)
        var opts = options(transport)
        opts.additionalHeaders = ["X-Client-Version": "Swift/LifeSignal", "X-Firebase-AppCheck": "ac"]
        _ = try await IdentityToolkitClient(apiKey: "KEY", options: opts).signUpAnonymously()
        #expect(
            lowercased(transport.last) == [
                "content-type": "application/json", "x-client-version": "Swift/LifeSignal", "x-firebase-appcheck": "ac",
            ])
    }

    @Test func firestoreReadsAndWrites() async throws {
        let transport = RecordingTransport(body: #"{"name":"projects/p/databases/(default)/documents/a/b","fields":{}}"#)
        let firestore = FirestoreClient(projectID: "p", tokenProvider: StaticIDTokenProvider("ID"), options: options(transport))
        _ = try await firestore.getDocument("a/b")
        #expect(transport.last?.body == nil)
        #expect(lowercased(transport.last) == ["authorization": "Bearer ID"])
        _ = try await firestore.createDocument(in: "a", id: "b", fields: ["n": .integer(1)])
        #expect(lowercased(transport.last) == ["authorization": "Bearer ID", "content-type": "application/json"])
    }

    @Test func storageAndCallablesAndMessaging() async throws {
        let metadata = #"{"name":"a/b","bucket":"bk","size":"1"}"#
        let storageTransport = RecordingTransport(body: metadata)
        let storage = FirebaseStorageClient(bucket: "bk", tokenProvider: StaticIDTokenProvider("ID"), options: options(storageTransport))
        _ = try await storage.upload(Data([1]), to: "a/b", contentType: "image/png")
        #expect(lowercased(storageTransport.last) == ["authorization": "Firebase ID", "content-type": "image/png"])
        _ = try await storage.metadata("a/b")
        #expect(lowercased(storageTransport.last) == ["authorization": "Firebase ID"])

        let callTransport = RecordingTransport(body: #"{"result":1}"#)
        let functions = CallableFunctionsClient(
            baseURL: URL(string: "https://us-central1-p.cloudfunctions.net")!, tokenProvider: StaticIDTokenProvider(nil),
            options: options(callTransport))
        _ = try await functions.call("f", data: .integer(1))
        #expect(lowercased(callTransport.last) == ["content-type": "application/json"])

        let fcmTransport = RecordingTransport(body: #"{"name":"projects/p/messages/1"}"#)
        let fcm = FCMClient(projectID: "p", accessTokenProvider: StaticAccessTokenProvider("OAUTH"), options: options(fcmTransport))
        _ = try await fcm.send(FCMMessage(target: .topic("news")))
        #expect(lowercased(fcmTransport.last) == ["authorization": "Bearer OAUTH", "content-type": "application/json"])
    }
}
