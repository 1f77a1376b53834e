import Foundation

/// The request a builder chain is assembling.
struct PostgrestRequestState: Sendable {
    var method: HTTPMethod
    /// The table, view or `rpc/<function>` after `/rest/v1/`.
    var resource: String
    var query: [QueryItem] = []
    var headers = HTTPHeaders()
    var body: Data?
    var fetchOptions = FetchOptions()
    /// Set by `maybeSingle()`: "no row" is a `nil` value rather than `PGRST116`.
    var isMaybeSingle = false

    /// Appends `item` to the `Prefer` header, comma-joined without a space as
    /// supabase-swift does (`return=representation,count=exact`).
    mutating func appendPreference(_ item: String) {
        if let prefer = headers["Prefer"], !prefer.isEmpty {
            headers["Prefer"] = prefer + "," + item
        } else {
            headers["Prefer"] = item
        }
    }

    /// Replaces the query item named `name`, or appends it.
    mutating func setQuery(_ name: String, _ value: String) {
        if let index = query.firstIndex(where: { $0.name == name }) {
            query[index].value = value
        } else {
            query.append(QueryItem(name: name, value: value))
        }
    }
}

/// The base of the PostgREST builder chain; executes the request built so far.
///
/// Like supabase-swift, builders are reference types whose methods mutate the request and
/// return `self` (or a more specific builder), so both chaining and
/// `var q = …; q = q.eq(…)` work. The state is behind a lock (``LockedValue``), making builders
/// `Sendable`; `@unchecked` only because the chain is a hierarchy of non-final classes, as
/// supabase-swift's is, and the compiler checks `Sendable` on final classes alone. The
/// subclasses add no stored state.
public class PostgrestBuilder: @unchecked Sendable {
    let context: PostgrestContext
    let state: LockedValue<PostgrestRequestState>

    init(context: PostgrestContext, state: PostgrestRequestState) {
        self.context = context
        self.state = LockedValue(state)
    }

    /// Continues the chain with a builder of another kind, copying the request so far.
    init(_ other: PostgrestBuilder) {
        context = other.context
        state = LockedValue(other.state.value)
    }

    /// Sends the request and ignores the body (mutations without representation, HEAD).
    ///
    /// - Throws: ``PostgrestError`` for an error document, ``HTTPError`` for any other non-2xx
    ///   response, ``TransportError`` when no response arrived.
    @discardableResult
    public func execute(options: FetchOptions = FetchOptions()) async throws -> PostgrestResponse<Void> {
        try await execute(options: options) { _ in () }
    }

    /// Sends the request and decodes the body as `T` with the shared decoder
    /// (``SupabaseJSON/makeDecoder()``): an array of rows, or one row after ``PostgrestTransformBuilder/single()``.
    ///
    /// - Throws: as ``execute(options:)``, plus ``ResponseDecodingError`` when a 2xx body does
    ///   not decode (non-JSON, truncated, wrong shape).
    @discardableResult
    public func execute<T: Decodable>(options: FetchOptions = FetchOptions()) async throws -> PostgrestResponse<T> {
        try await execute(options: options) { response in
            try response.decode(T.self, decoder: SupabaseJSON.makeDecoder())
        }
    }

    private func execute<T>(
        options: FetchOptions,
        decode: (HTTPResponse) throws -> T
    ) async throws -> PostgrestResponse<T> {
        let request = try await makeRequest(options: options)
        var response = try await context.pipeline.send(request)
        guard response.isSuccess else {
            if let error = try? SupabaseJSON.makeDecoder().decode(PostgrestError.self, from: response.body) {
                guard state.value.isMaybeSingle, error.isNoRowForSingleObject else { throw error }
                // `maybeSingle()`: zero rows is an answer, `null`, as supabase-swift makes it.
                response = HTTPResponse(status: 200, headers: response.headers, body: Data("null".utf8))
                return PostgrestResponse(data: response.body, response: response, count: nil, value: try decode(response))
            }
            throw HTTPError(data: response.body, response: response)
        }
        let value = try decode(response)
        return PostgrestResponse(
            data: response.body, response: response, count: Self.count(request, response), value: value)
    }

    /// The final wire request: builder state plus the client-wide headers.
    func makeRequest(options: FetchOptions = FetchOptions()) async throws -> HTTPRequest {
        var state = self.state.value
        if options.head { state.method = .head }
        if let count = options.count { state.appendPreference("count=\(count.rawValue)") }

        var headers = context.headers
        if let token = await context.bearerToken() {
            headers["Authorization"] = "Bearer \(token)"
        }
        headers.merge(state.headers)
        if headers["Accept"] == nil { headers["Accept"] = "application/json" }
        headers["Content-Type"] = "application/json"
        if let schema = context.schema {
            let isRead = state.method == .get || state.method == .head
            headers[isRead ? "Accept-Profile" : "Content-Profile"] = schema
        }

        let url = try buildURL(
            base: context.url, path: "rest/v1", segment: state.resource, keepSlashInSegment: true,
            query: state.query)
        return HTTPRequest(method: state.method, url: url, headers: headers, body: state.body)
    }

    /// The total from `Content-Range: 0-9/42` when the request asked for a count.
    static func count(_ request: HTTPRequest, _ response: HTTPResponse) -> Int? {
        guard request.headers["Prefer"]?.contains("count=") == true,
            let range = response.headers["Content-Range"],
            let total = range.split(separator: "/").last
        else { return nil }
        return Int(total)
    }
}
