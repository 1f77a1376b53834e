import Hummingbird
import LifeSignalBackend
import NIOCore

/// Step 4 of a `/rest/v1` read, as PostgREST answers it: the page's rows as an array or, for
/// `Accept: application/vnd.pgrst.object`, the one row unwrapped (406 `PGRST116` when there
/// is not exactly one); `Content-Range` with the rows sent and, for `count=exact`, the total
/// (206 when the page is not all of it, 416 `PGRST103` for an offset past the end).
/// What step 4 answers, as plain values (the step is tested without a server).
struct RESTReply: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    /// `nil` for no body (a HEAD, `return=minimal`).
    var body: String? = nil

    var response: Response {
        Response(status: status, headers: headers, body: body.map { .init(byteBuffer: ByteBuffer(string: $0)) } ?? .init())
    }
}

enum RESTReadResponse {
    /// A page as ``CallerTransaction/readPage(caller:claims:page:columns:)`` reads it:
    /// the rows as one JSON array, how many, and the total when counted.
    typealias Page = (body: String, rows: Int, total: Int?)

    static func make(_ page: Page, offset: Int, singular: Bool, head: Bool) throws(RESTError) -> RESTReply {
        if singular && page.rows != 1 { throw RESTError.notSingular(page.rows) }
        var headers: HTTPFields = [:]
        // `offset + rows` cannot overflow: that many rows exist past `offset`.
        let range = page.rows > 0 ? "\(offset)-\(offset + (page.rows - 1))" : "*"
        headers[.contentRange] = "\(range)/\(page.total.map(String.init) ?? "*")"
        var status = HTTPResponse.Status.ok
        if let total = page.total {
            headers[.preferenceApplied] = "count=exact"
            if offset > total && total > 0 {
                throw RESTError(
                    status: .rangeNotSatisfiable, code: .unsatisfiableRange, message: "Requested range not satisfiable",
                    details: "An offset of \(offset) was requested, but there are only \(total) rows.",
                    headers: [.contentRange: "*/\(total)"])
            }
            if page.rows < total { status = .partialContent }
        }
        var output = page.body
        if singular {
            // One row: strip the array brackets PostgreSQL or the renderer wrote.
            output = String(page.body.dropFirst().dropLast())
            headers[.contentType] = RESTWriteResponse.objectContentType
        } else {
            headers[.contentType] = JSONResponse.contentType
        }
        return RESTReply(status: status, headers: headers, body: head ? nil : output)
    }
}

/// Step 4 of a `/rest/v1` write: 201 for an insert (200 when every row of a
/// `merge-duplicates` upsert existed), 200 or 204 for PATCH and DELETE as `return=` asks;
/// `Preference-Applied` naming the preferences honoured, `Content-Range` with `count=exact`'s
/// total, and the written rows shaped by `select=` for `return=representation`.
enum RESTWriteResponse {
    static let objectContentType = "application/vnd.pgrst.object+json; charset=utf-8"

    /// A PATCH that sets nothing, and a PUT that returns nothing.
    static var noContent: RESTReply { RESTReply(status: .noContent, headers: [.contentRange: "*/*"]) }

    static func make(_ write: PlannedWrite, rows: [SQLRow], inserted: Int) -> RESTReply {
        let plan = write.plan
        if write.put && plan.returning != .representation { return noContent }
        var headers: HTTPFields = [:]
        var applied: [String] = []
        if write.kind == .insert, plan.resolution != nil { applied.append("resolution=\(plan.resolution?.rawValue ?? "")") }
        if plan.missingDefault { applied.append("missing=default") }
        if plan.returning != .minimal { applied.append("return=\(plan.returning.rawValue)") }
        if plan.countExact { applied.append("count=exact") }
        if !applied.isEmpty { headers[.preferenceApplied] = applied.joined(separator: ", ") }
        let total = plan.countExact ? String(rows.count) : "*"
        switch write.kind {
        case .insert, .delete: headers[.contentRange] = "*/\(total)"
        case .update: headers[.contentRange] = rows.isEmpty ? "*/\(total)" : "0-\(rows.count - 1)/\(total)"
        }
        let status: HTTPResponse.Status =
            switch write.kind {
            case .insert: plan.resolution == .mergeDuplicates && inserted == 0 ? .ok : .created
            case .update, .delete: plan.returning == .representation ? .ok : .noContent
            }
        guard plan.returning == .representation else { return RESTReply(status: status, headers: headers) }
        let objects = JSONRenderer.projected(rows, columns: write.columns)
        let body = write.singular ? (objects.first ?? "{}") : "[" + objects.joined(separator: ",") + "]"
        headers[.contentType] = write.singular ? objectContentType : JSONResponse.contentType
        return RESTReply(status: status, headers: headers, body: body)
    }
}
