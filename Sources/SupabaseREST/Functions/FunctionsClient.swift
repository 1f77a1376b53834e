import Foundation

/// Calls Supabase Edge Functions: `POST <url>/functions/v1/<name>`.
///
/// Requests carry `apikey` and `Authorization: Bearer <user access token>` when signed in,
/// else the API key (with the new opaque `sb_…` keys and no session, no `Authorization`
/// at all, as supabase-swift does). Only `GET` invocations are retried.
public struct FunctionsClient: Sendable {
    let url: URL
    let headers: HTTPHeaders
    let bearerToken: @Sendable () async -> String?
    let pipeline: HTTPPipeline
    let region: FunctionRegion?
    let timeout: Duration

    init(
        url: URL,
        headers: HTTPHeaders,
        bearerToken: @escaping @Sendable () async -> String?,
        pipeline: HTTPPipeline,
        region: FunctionRegion?,
        timeout: Duration
    ) {
        self.url = url
        self.headers = headers
        self.bearerToken = bearerToken
        self.pipeline = pipeline
        self.region = region
        self.timeout = timeout
    }

    /// Invokes `functionName` and ignores the response body.
    ///
    /// - Throws: ``FunctionsError`` for relay errors and non-2xx statuses,
    ///   ``TransportError`` when no response arrived (including the time limit, 150 s by default).
    public func invoke(_ functionName: String, options: FunctionInvokeOptions = .init()) async throws {
        _ = try await send(functionName, options: options)
    }

    /// Invokes `functionName` and decodes its JSON response as `T`.
    ///
    /// - Throws: as ``invoke(_:options:)``, plus ``ResponseDecodingError`` when the body does
    ///   not decode.
    public func invoke<T: Decodable>(
        _ functionName: String,
        options: FunctionInvokeOptions = .init(),
        decoder: JSONDecoder = SupabaseJSON.makeDecoder()
    ) async throws -> T {
        let response = try await send(functionName, options: options)
        return try response.decode(T.self, decoder: decoder)
    }

    /// Invokes `functionName` and hands the raw response to `decode` (text, bytes, …).
    public func invoke<T>(
        _ functionName: String,
        options: FunctionInvokeOptions = .init(),
        decode: (Data, HTTPResponse) throws -> T
    ) async throws -> T {
        let response = try await send(functionName, options: options)
        return try decode(response.body, response)
    }

    /// Builds the wire request for an invocation (exposed to tests).
    func makeRequest(_ functionName: String, options: FunctionInvokeOptions) async throws -> HTTPRequest {
        var requestHeaders = headers
        if let token = await bearerToken() {
            requestHeaders["Authorization"] = "Bearer \(token)"
        }
        var query = options.query.map { QueryItem(name: $0.name, value: $0.value ?? "") }
        if let region = options.region ?? region, region != .any {
            requestHeaders["x-region"] = region.rawValue
            query.append(QueryItem(name: "forceFunctionRegion", value: region.rawValue))
        }
        var body: Data?
        switch options.body {
        case .none: break
        case .bytes(let data, let contentType):
            body = data
            requestHeaders["Content-Type"] = contentType
        case .unencodable(let message):
            throw FunctionsError.bodyEncodingFailed(message)
        }
        requestHeaders.merge(HTTPHeaders(options.headers))
        let url = try buildURL(
            base: url, path: "functions/v1", segment: functionName, keepSlashInSegment: true, query: query)
        return HTTPRequest(
            method: HTTPMethod(rawValue: (options.method ?? .post).rawValue),
            url: url, headers: requestHeaders, body: body, timeout: timeout)
    }

    private func send(_ functionName: String, options: FunctionInvokeOptions) async throws -> HTTPResponse {
        let request = try await makeRequest(functionName, options: options)
        let response = try await pipeline.send(request)
        if response.headers["x-relay-error"]?.lowercased() == "true" {
            throw FunctionsError.relayError
        }
        guard response.isSuccess else {
            throw FunctionsError.httpError(code: response.status, data: response.body)
        }
        return response
    }
}
