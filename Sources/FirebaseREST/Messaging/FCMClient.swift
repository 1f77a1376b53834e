import Foundation

/// Sends push notifications through FCM HTTP v1. Server side only: it needs a Google OAuth
/// access token with the `firebase.messaging` scope, supplied by an ``AccessTokenProvider``.
///
/// ```swift
/// let fcm = FCMClient(projectID: "p", accessTokenProvider: serviceAccountTokens)
/// let id = try await fcm.send(FCMMessage(target: .token(deviceToken),
///                                        notification: .init(title: "Check in", body: "Are you OK?")))
/// ```
public struct FCMClient: Sendable {
    public var projectID: String
    /// `https://fcm.googleapis.com`, or a stand-in for tests.
    public var baseURL: URL
    let accessTokenProvider: any AccessTokenProvider
    let pipeline: HTTPPipeline

    /// The production endpoint.
    public static let productionURL = URL(string: "https://fcm.googleapis.com")!

    /// Creates a client.
    public init(
        projectID: String, baseURL: URL = Self.productionURL, accessTokenProvider: any AccessTokenProvider,
        options: FirebaseHTTPOptions = FirebaseHTTPOptions()
    ) {
        self.projectID = projectID
        self.baseURL = baseURL
        self.accessTokenProvider = accessTokenProvider
        self.pipeline = options.pipeline
    }

    /// Sends `message`; returns its id (`projects/p/messages/<id>`).
    ///
    /// Sends are never retried by the library (a retry could deliver twice); on
    /// ``FCMError/Code/quotaExceeded`` or ``FCMError/Code/unavailable`` retry with backoff.
    @discardableResult
    public func send(_ message: FCMMessage, validateOnly: Bool = false) async throws -> String {
        let url = try httpURL(
            baseURL.baseWithoutTrailingSlash + "/v1/projects/" + percentEncode(projectID) + "/messages:send")
        var body = message.body
        if validateOnly, case .object(var object) = body {
            object["validate_only"] = true
            body = .object(object)
        }
        let token = try await accessTokenProvider.accessToken()
        let request = HTTPRequest(
            method: .post, url: url,
            headers: ["Content-Type": "application/json", "Authorization": "Bearer " + token],
            body: try encodeJSONBody(body))
        let response = try await pipeline.send(request)
        guard response.isSuccess else { throw FCMError(response: response) }
        struct Reply: Decodable { var name: String }
        return try response.decode(Reply.self).name
    }
}
