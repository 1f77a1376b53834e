import Foundation
import HTTPTypes

/// Step 1 of a `/rest/v1` request, as PostgREST's `ApiRequest`: what the request asks for,
/// read from its query string and headers alone — no schema, no caller, no SQL. Every
/// refusal here is the client's grammar (400 `PGRST100`, 406 `PGRST107`, 416 `PGRST103`).
///
/// The steps after it: ``RESTReadPlan``/``RESTWritePlan`` (against the schema cache, with the
/// caller's policies), ``RESTSQLBuilder`` (SQL), ``RESTReadResponse``/``RESTWriteResponse``.
struct RESTReadRequest: Sendable {
    /// The query string's `select`, filters, `order`, `limit` and `offset`.
    var query: ReadPlan
    /// What `Accept` asked for: an array, or one object.
    var media: RESTMediaType
    /// `Range: <from>-[<to>]`, for a GET (a HEAD's is ignored, as PostgREST ignores it).
    var range: RESTRange?
    /// `Prefer: count=exact`: the total is counted and sent in `Content-Range`.
    var countExact: Bool
    /// A HEAD: the same headers, no body.
    var head: Bool

    /// Reads a GET or HEAD. The order of the checks is the order of PostgREST's answers when
    /// several things are wrong: `Accept` first, then the query string, then `Range`.
    init(query: String?, headers: HTTPFields, head: Bool, limits: QueryLimits = .standard) throws(RESTError) {
        media = try RESTMediaType.negotiate(headers)
        self.query = try RESTQueryParser.readPlan(RESTQueryParser.pairs(query), limits: limits)
        range = head ? nil : try headers[.range].flatMap { (value) throws(RESTError) -> RESTRange? in try RESTRange.parse(value) }
        countExact = RESTPreferences.list(headers).contains("count=exact")
        self.head = head
    }
}

/// A POST, PUT, PATCH or DELETE, read from its query string, `Prefer` and body.
struct RESTWriteRequest: Sendable {
    /// The rows, columns, filters, `select` and preferences, parsed (``WritePlanParser``).
    var parsed: WritePlan
    /// The decoded query pairs: a PUT's plan checks them against the primary key.
    var pairs: [(String, String)]
    var media: RESTMediaType
    /// A PUT: an insert that must name exactly one row by its primary key.
    var put: Bool

    /// `body` is read only once `Accept` is known to be answerable (a DELETE has none), so a
    /// request refused for its headers never has its body read.
    static func read(
        kind: WritePlan.Kind, put: Bool, query: String?, headers: HTTPFields, limits: QueryLimits = .standard,
        body: () async throws -> Data
    ) async throws -> RESTWriteRequest {
        let media = try RESTMediaType.negotiate(headers)
        let data = kind == .delete ? Data() : try await body()
        let pairs = RESTQueryParser.pairs(query)
        let parsed = try WritePlanParser.parse(kind: kind, pairs: pairs, preferences: RESTPreferences.list(headers), body: data, limits: limits)
        return RESTWriteRequest(parsed: parsed, pairs: pairs, media: media, put: put)
    }
}

/// The `Prefer` header's preferences (`return=representation`, `count=exact`, …), every line
/// and comma-separated entry, trimmed.
enum RESTPreferences {
    static func list(_ headers: HTTPFields) -> [String] {
        headers[values: .prefer].flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }
}
