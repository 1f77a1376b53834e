import Foundation

/// Calls Firebase callable functions (`onCall`) over their HTTP protocol.
///
/// `POST https://<region>-<project>.cloudfunctions.net/<name>` with `{"data": …}`; the reply
/// is `{"result": …}` or `{"error": …}` (→ ``CallableFunctionError``). The ID token, when
/// there is one, goes in `Authorization: Bearer` so the function sees `context.auth`.
public struct CallableFunctionsClient: Sendable {
    /// `https://<region>-<project>.cloudfunctions.net`, or the emulator's
    /// `http://host:port/<project>/<region>`, or a custom domain.
    public var baseURL: URL
    let tokenProvider: any IDTokenProvider
    let pipeline: HTTPPipeline

    /// Creates a client for functions deployed at `baseURL`.
    public init(baseURL: URL, tokenProvider: any IDTokenProvider, options: FirebaseHTTPOptions = FirebaseHTTPOptions()) {
        self.baseURL = baseURL
        self.tokenProvider = tokenProvider
        self.pipeline = options.pipeline
    }

    /// Creates a client for the production URL of `projectID` in `region`.
    public init(
        projectID: String, region: String = "us-central1", tokenProvider: any IDTokenProvider,
        options: FirebaseHTTPOptions = FirebaseHTTPOptions()
    ) throws {
        self.init(
            baseURL: try httpURL("https://\(region)-\(projectID).cloudfunctions.net"), tokenProvider: tokenProvider,
            options: options)
    }

    /// Calls `name` with `data` and returns its result (`null` when it returned nothing).
    public func call(_ name: String, data: AnyJSON = .null) async throws -> AnyJSON {
        guard !name.isEmpty else { throw TransportError.invalidURL(baseURL.baseWithoutTrailingSlash + "/") }
        let url = try httpURL(baseURL.baseWithoutTrailingSlash + "/" + percentEncode(name, keeping: "/"))
        var request = HTTPRequest(
            method: .post, url: url, headers: ["Content-Type": "application/json"], body: try encodeJSONBody(["data": data]))
        if let token = try await tokenProvider.idToken() { request.headers["Authorization"] = "Bearer " + token }
        let response = try await pipeline.send(request)
        guard response.isSuccess else { throw CallableFunctionError(response: response) }
        struct Reply: Decodable {
            var result: AnyJSON?
            var error: AnyJSON?
        }
        let reply = try response.decode(Reply.self)
        if reply.error != nil { throw CallableFunctionError(response: response) }
        // A function returning `undefined` sends `{"result":null}` or, from some runtimes, `{}`.
        return reply.result ?? .null
    }

    /// Calls `name` with an `Encodable` payload and decodes the result as `Result`.
    public func call<Payload: Encodable, Result: Decodable>(
        _ name: String, data: Payload, as type: Result.Type = Result.self
    ) async throws -> Result {
        let result = try await call(name, data: try AnyJSON(encoding: data))
        do {
            return try result.decode(as: Result.self)
        } catch {
            throw ResponseDecodingError(
                type: String(describing: Result.self), status: 200, body: try encodeJSONBody(result),
                message: String(describing: error))
        }
    }
}
