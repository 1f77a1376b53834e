import HTTPTypes

/// What a `/rest/v1` request's `Accept` header asks for, negotiated as PostgREST does: the
/// first acceptable entry wins, and when none is acceptable the answer is `406 PGRST107`
/// naming them, instead of a JSON body the client said it cannot read.
enum RESTMediaType: Equatable {
    /// `application/json` (and `*/*`, `application/*`, `application/vnd.pgrst.array`).
    case array
    /// `application/vnd.pgrst.object`: exactly one row, unwrapped.
    case object

    private static let arrays: Set<String> = [
        "*/*", "application/*", "application/json", "application/vnd.pgrst.array",
        "application/vnd.pgrst.array+json",
    ]
    private static let objects: Set<String> = ["application/vnd.pgrst.object", "application/vnd.pgrst.object+json"]

    static func negotiate(_ headers: HTTPFields) throws(RESTError) -> RESTMediaType {
        let values = headers[values: .accept]
        guard !values.isEmpty else { return .array }
        var asked: [String] = []
        for value in values {
            for entry in value.split(separator: ",") {
                let parameters = entry.split(separator: ";")
                let type = (parameters.first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
                guard !type.isEmpty else { continue }
                // `q=0` means "not this one" (RFC 9110 §12.4.2).
                let refused = parameters.dropFirst().contains { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "") == "q=0" }
                asked.append(type)
                if refused { continue }
                if objects.contains(type) { return .object }
                if arrays.contains(type) { return .array }
            }
        }
        guard !asked.isEmpty else { return .array }
        throw RESTError(
            status: .notAcceptable, code: .unacceptableMediaType,
            message: "None of these media types are available: \(asked.joined(separator: ", "))")
    }
}
