import Foundation

/// A Supabase project: PostgREST tables, Edge Functions, Auth, Storage and Realtime behind
/// one URL and key.
///
/// Shaped like supabase-swift's `SupabaseClient`, so code written against it compiles with
/// only the import changed:
///
/// ```swift
/// let client = SupabaseClient(supabaseURL: url, supabaseKey: anonKey)
/// let rows: [Location] = try await client.from("locations").select()
///   .is("deleted_at", value: nil).order("name").execute().value
/// ```
///
/// Requests carry `apikey: <key>`, `X-Client-Info: supabase-swift/2.55.1`, and
/// `Authorization: Bearer <token>` — the user's access token when signed in (refreshed
/// when about to expire), the key otherwise.
public final class SupabaseClient: Sendable {
    /// The version announced in `X-Client-Info`: the supabase-swift release whose wire
    /// behaviour this client reproduces.
    public static let clientInfo = "supabase-swift/2.55.1"
    /// The header numbering retries of reads, as supabase-swift sends it.
    static let retryCountHeader = "X-Retry-Count"

    /// The project URL.
    public let supabaseURL: URL
    /// The API key (anon/publishable or service role).
    public let supabaseKey: String
    /// `<project>/auth/v1`, as supabase-swift names it.
    public var authURL: URL { supabaseURL.appendingPathComponent("auth/v1") }
    /// `<project>/rest/v1`.
    public var databaseURL: URL { supabaseURL.appendingPathComponent("rest/v1") }
    /// `<project>/storage/v1`.
    public var storageURL: URL { supabaseURL.appendingPathComponent("storage/v1") }
    /// `<project>/functions/v1`, where seed 000's base adapter posts by hand.
    public var functionsURL: URL { supabaseURL.appendingPathComponent("functions/v1") }
    /// Auth (GoTrue).
    public let auth: AuthClient
    /// Edge Functions.
    public let functions: FunctionsClient
    /// PostgREST, for the configured schema.
    public let rest: PostgrestClient
    /// Storage (files in buckets).
    public let storage: StorageClient
    /// Realtime (`postgres_changes` over a WebSocket); the socket opens on first use.
    public let realtimeV2: RealtimeClientV2

    /// Creates a client. Nothing is sent until the first call; an unusable URL surfaces then
    /// as ``TransportError/invalidURL(_:)``.
    public init(supabaseURL: URL, supabaseKey: String, options: SupabaseClientOptions = .init()) {
        self.supabaseURL = supabaseURL
        self.supabaseKey = supabaseKey

        var base = HTTPHeaders()
        base["X-Client-Info"] = Self.clientInfo
        base["apikey"] = supabaseKey
        base.merge(HTTPHeaders(options.global.headers))
        base["Authorization"] = nil

        let pipeline = HTTPPipeline(
            transport: options.global.transport, retryPolicy: options.global.retryPolicy,
            defaultTimeout: options.global.timeout, retryCountHeader: Self.retryCountHeader)

        var authHeaders = base
        authHeaders["Authorization"] = "Bearer \(supabaseKey)"
        authHeaders["X-Supabase-Api-Version"] = AuthAPI.apiVersion
        let storageKey = options.auth.storageKey ?? Self.defaultStorageKey(for: supabaseURL)
        let auth = AuthClient(
            api: AuthAPI(url: supabaseURL, headers: authHeaders, pipeline: pipeline),
            store: SessionStore(storage: options.auth.storage, key: storageKey),
            refreshMargin: options.auth.refreshMargin.timeInterval)
        self.auth = auth

        let key = supabaseKey
        rest = PostgrestClient(
            context: PostgrestContext(
                url: supabaseURL, schema: options.db.schema, headers: base,
                bearerToken: { (try? await auth.session.accessToken) ?? key },
                pipeline: pipeline))

        storage = StorageClient(
            url: supabaseURL, headers: base,
            bearerToken: { (try? await auth.session.accessToken) ?? key },
            pipeline: pipeline)

        let functionsPipeline = HTTPPipeline(
            transport: options.global.transport, retryPolicy: options.global.retryPolicy,
            defaultTimeout: options.functions.timeout, retryCountHeader: Self.retryCountHeader)
        functions = FunctionsClient(
            url: supabaseURL, headers: base,
            bearerToken: {
                if let token = try? await auth.session.accessToken { return token }
                // New opaque keys are not JWTs: supabase-swift sends no Bearer without a session.
                return key.hasPrefix("sb_") ? nil : key
            },
            pipeline: functionsPipeline, region: options.functions.region,
            timeout: options.functions.timeout)

        // Channels join as the signed-in user (else with the key) and follow sign-ins/refreshes.
        var socketHeaders = base
        socketHeaders["apikey"] = supabaseKey
        realtimeV2 = RealtimeClientV2(
            url: supabaseURL.appendingPathComponent("realtime/v1"), apiKey: supabaseKey, options: options.realtime,
            headers: Dictionary(socketHeaders.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }),
            accessToken: { try? await auth.session.accessToken },
            tokenChanges: { auth.realtimeTokenChanges })
    }

    /// The Realtime channel `name`; see ``RealtimeClientV2/channel(_:options:)``.
    public func channel(
        _ name: String,
        options: (inout RealtimeChannelConfig) -> Void = { _ in }
    ) -> RealtimeChannelV2 {
        realtimeV2.channel(name, options: options)
    }

    /// Starts a query on `table`: `client.from("locations").select()…`.
    public func from(_ table: String) -> PostgrestQueryBuilder {
        rest.from(table)
    }

    /// PostgREST for another exposed schema.
    public func schema(_ schema: String) -> PostgrestClient {
        rest.schema(schema)
    }

    /// Calls a Postgres function; see ``PostgrestClient/rpc(_:params:head:get:count:)``.
    public func rpc(
        _ function: String,
        params: some Encodable & Sendable,
        head: Bool = false,
        get: Bool = false,
        count: CountOption? = nil
    ) throws -> PostgrestFilterBuilder {
        try rest.rpc(function, params: params, head: head, get: get, count: count)
    }

    /// Calls a Postgres function without arguments.
    public func rpc(
        _ function: String,
        head: Bool = false,
        get: Bool = false,
        count: CountOption? = nil
    ) throws -> PostgrestFilterBuilder {
        try rest.rpc(function, head: head, get: get, count: count)
    }

    /// supabase-swift's storage key: `sb-<first label of the host>-auth-token`.
    static func defaultStorageKey(for url: URL) -> String {
        let ref = url.host?.split(separator: ".").first.map(String.init) ?? "default"
        return "sb-\(ref)-auth-token"
    }
}
