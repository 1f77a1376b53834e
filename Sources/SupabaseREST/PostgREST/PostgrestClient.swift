import Foundation

/// Everything a PostgREST request needs besides the query itself.
struct PostgrestContext: Sendable {
    /// The project URL; requests go to `<url>/rest/v1/…`.
    var url: URL
    /// The schema (`Accept-Profile`/`Content-Profile`), or `nil` for the server default.
    var schema: String?
    /// `apikey`, `X-Client-Info` and the caller's global headers.
    var headers: HTTPHeaders
    /// The bearer token of the moment: the user's access token, else the API key.
    var bearerToken: @Sendable () async -> String?
    var pipeline: HTTPPipeline
}

/// The entry point to PostgREST tables: `client.from("locations")`.
///
/// Obtain it from ``SupabaseClient/schema(_:)`` or use ``SupabaseClient/from(_:)`` directly.
public struct PostgrestClient: Sendable {
    let context: PostgrestContext

    init(context: PostgrestContext) { self.context = context }

    /// Starts a query on `table` (a table or view of the current schema).
    public func from(_ table: String) -> PostgrestQueryBuilder {
        PostgrestQueryBuilder(
            context: context,
            state: PostgrestRequestState(method: .get, resource: table))
    }

    /// A client for another exposed schema: its requests carry `Accept-Profile` (reads) or
    /// `Content-Profile` (writes) so PostgREST resolves tables there.
    public func schema(_ schema: String) -> PostgrestClient {
        var context = self.context
        context.schema = schema
        return PostgrestClient(context: context)
    }

    /// Calls the Postgres function `function` (`POST /rest/v1/rpc/<function>`) with `params`
    /// as its JSON arguments.
    ///
    /// - Parameters:
    ///   - head: Send `HEAD` (no body back), e.g. with `count` to only count the rows.
    ///   - get: Send `GET` (read-only functions); the arguments then go in the query string,
    ///     so they must be a flat object of scalars.
    ///   - count: Ask for a row count.
    public func rpc(
        _ function: String,
        params: some Encodable & Sendable,
        head: Bool = false,
        get: Bool = false,
        count: CountOption? = nil
    ) throws -> PostgrestFilterBuilder {
        var state = PostgrestRequestState(method: .post, resource: "rpc/" + function)
        let body = try SupabaseJSON.makeEncoder().encode(params)
        if head || get {
            state.method = head ? .head : .get
            // Arguments travel as query parameters, spelled as filter values are: scalars as
            // text, arrays as Postgres array literals (`{1,2}`), objects as JSON.
            guard case .object(let object)? = try? JSONDecoder().decode(AnyJSON.self, from: body) else {
                throw EncodingError.invalidValue(
                    params,
                    EncodingError.Context(
                        codingPath: [], debugDescription: "rpc(get:/head:) arguments must encode to a JSON object"))
            }
            for key in object.keys.sorted() {
                state.query.append(QueryItem(name: key, value: object[key]?.rawValue ?? "NULL"))
            }
        } else {
            state.body = body
        }
        if let count { state.headers["Prefer"] = "count=\(count.rawValue)" }
        return PostgrestFilterBuilder(context: context, state: state)
    }

    /// Calls the Postgres function `function` without arguments (`{}`).
    public func rpc(
        _ function: String,
        head: Bool = false,
        get: Bool = false,
        count: CountOption? = nil
    ) throws -> PostgrestFilterBuilder {
        try rpc(function, params: [String: AnyJSON](), head: head, get: get, count: count)
    }
}
