import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions

/// One generated request, ready for ``TestServer/request``.
struct FuzzRequest: Sendable, CustomStringConvertible {
    var method: String
    var path: String
    var headers: [String: String] = [:]
    var body: Data?
    var bearer: String?
    var apiKey: String??

    /// Reads cannot change rows; everything else is checked for "refused changes nothing".
    var mayWrite: Bool { method != "GET" && method != "HEAD" }

    var description: String {
        let shownBody = body.map { String(decoding: $0.prefix(300), as: UTF8.self) } ?? "-"
        return "\(method) \(path.prefix(400)) headers=\(headers) bearer=\(bearer.map { String($0.prefix(12)) } ?? "-") body=\(shownBody)"
    }
}

/// Generates requests for every surface a stranger reaches: `/rest/v1` reads and writes on
/// every exposed table, every function, sign-in, with odd headers, numbers at and past every
/// limit, Unicode, long values, deep nesting and wrong types.
struct RequestFuzzer {
    var random: FuzzRandom
    let tables: [TableSchema]
    let functions: [String]
    /// Bearer tokens to choose from: people, the keys, garbage.
    let bearers: [String?]

    mutating func next() -> FuzzRequest {
        var request: FuzzRequest
        switch random.int(0...9) {
        case 0...3: request = read()
        case 4...6: request = write()
        case 7...8: request = function()
        default: request = auth()
        }
        if random.chance(0.05) { request.apiKey = .some(random.pick([nil, "garbage", "a.b.c"])) }
        return request
    }

    // MARK: - /rest/v1

    private mutating func read() -> FuzzRequest {
        let table = random.pick(tables)
        var request = FuzzRequest(method: random.chance(0.1) ? "HEAD" : "GET", path: "/rest/v1/\(tableName(table))?\(query(table, forWrite: false))")
        request.bearer = random.pick(bearers)
        if random.chance(0.3) { request.headers["Range"] = rangeHeader() }
        if random.chance(0.3) { request.headers["Prefer"] = random.pick(FuzzValues.preferences) }
        if random.chance(0.3) { request.headers["Accept"] = random.pick(FuzzValues.acceptHeaders) }
        return request
    }

    private mutating func write() -> FuzzRequest {
        let table = random.pick(tables)
        let method = random.pick(["POST", "POST", "PATCH", "PUT", "DELETE"])
        var request = FuzzRequest(method: method, path: "/rest/v1/\(tableName(table))?\(query(table, forWrite: true))")
        request.bearer = random.pick(bearers)
        if method != "DELETE" { request.body = body(columns: table.columns.map(\.name)) }
        if random.chance(0.4) { request.headers["Prefer"] = random.pick(FuzzValues.preferences) }
        if random.chance(0.2) { request.headers["Accept"] = random.pick(FuzzValues.acceptHeaders) }
        if random.chance(0.2) { request.headers["Content-Type"] = random.pick(FuzzValues.contentTypes) }
        return request
    }

    private mutating func tableName(_ table: TableSchema) -> String {
        random.chance(0.05)
            ? encode(random.pick(["", "nope", "users;drop", "..", "%00", "pg_catalog.pg_user", String(repeating: "t", count: 300)])) : table.name
    }

    /// `key=value&…` with every value percent-encoded.
    private mutating func query(_ table: TableSchema, forWrite: Bool) -> String {
        var pairs: [(String, String)] = []
        let columns = table.columns.map(\.name)
        for _ in 0..<random.int(0...5) {
            switch random.int(0...9) {
            case 0: pairs.append(("select", selectList(columns)))
            case 1: pairs.append(("order", orderList(columns)))
            case 2: pairs.append((random.pick(["limit", "offset"]), random.pick(FuzzValues.numbers)))
            case 3: pairs.append((random.pick(["or", "and", "not.or", "not.and"]), "(" + tree(columns, depth: random.int(1...14)) + ")"))
            case 4: pairs.append((random.pick(["columns", "on_conflict"]), selectList(columns)))
            default: pairs.append(filterPair(columns))
            }
        }
        if forWrite, random.chance(0.7) { pairs.append(filterPair(columns)) }
        if random.chance(0.02) {
            // Past the limits on purpose: many conditions, a wide tree, a long list.
            let many = random.int(150...1_200)
            let column = random.pick(columns)
            pairs.append(("or", "(" + (0..<many).map { "\(column).eq.\($0)" }.joined(separator: ",") + ")"))
        }
        // Past 32 KiB the head is refused (431); the rest of a longer query would test nothing more.
        var encoded = pairs.map { "\(encode($0.0))=\(encode($0.1))" }
        while encoded.count > 1, encoded.reduce(0, { $0 + $1.utf8.count }) > 36_000 { encoded.removeFirst() }
        return encoded.joined(separator: "&")
    }

    private mutating func selectList(_ columns: [String]) -> String {
        let count = random.chance(0.05) ? random.int(150...260) : random.int(0...5)
        return (0..<count).map { _ -> String in
            switch random.int(0...5) {
            case 0: "*"
            case 1: "\(random.pick(FuzzValues.strings)):\(random.pick(columns))"
            case 2: random.pick(FuzzValues.strings)
            default: random.pick(columns)
            }
        }.joined(separator: random.chance(0.9) ? "," : ";")
    }

    private mutating func orderList(_ columns: [String]) -> String {
        let count = random.chance(0.05) ? random.int(15...40) : random.int(0...4)
        return (0..<count).map { _ in
            random.pick(columns + ["nope"]) + random.pick(["", ".asc", ".desc", ".nullsfirst", ".desc.nullslast", ".up", "..", ".asc.desc.asc"])
        }.joined(separator: ",")
    }

    private mutating func filterPair(_ columns: [String]) -> (String, String) {
        let column = random.chance(0.9) ? random.pick(columns) : random.pick(FuzzValues.strings)
        let negation = random.chance(0.15) ? "not." : ""
        let op = random.pick(FuzzValues.operators)
        return (column, "\(negation)\(op).\(operand(op))")
    }

    private mutating func operand(_ op: String) -> String {
        switch op {
        case "in":
            let count = random.chance(0.05) ? random.int(990...1_100) : random.int(0...6)
            return "(" + (0..<count).map { _ in scalar() }.joined(separator: ",") + (random.chance(0.95) ? ")" : "")
        case "cs", "cd", "ov": return "{" + (0..<random.int(0...4)).map { _ in scalar() }.joined(separator: ",") + "}"
        case "is": return random.pick(["null", "not_null", "true", "false", "unknown", "maybe", ""])
        default: return scalar()
        }
    }

    private mutating func scalar() -> String {
        switch random.int(0...9) {
        case 0...3: return random.pick(FuzzValues.numbers)
        case 4: return String(repeating: random.pick(FuzzValues.strings), count: random.int(1...2_000))
        case 5: return "\"" + random.pick(FuzzValues.strings) + "\""
        default: return random.pick(FuzzValues.strings)
        }
    }

    private mutating func condition(_ columns: [String]) -> String {
        let (column, expression) = filterPair(columns)
        return "\(column).\(expression)"
    }

    /// A logic tree's inside, nested up to `depth` groups (a few past the limit of 10).
    private mutating func tree(_ columns: [String], depth: Int) -> String {
        let width = random.int(1...4)
        return (0..<width).map { _ -> String in
            if depth > 1, random.chance(0.5) {
                return random.pick(["and", "or", "not.and", "not.or"]) + "(" + tree(columns, depth: depth - 1) + ")"
            }
            return condition(columns)
        }.joined(separator: random.chance(0.97) ? "," : ";")
    }

    private mutating func rangeHeader() -> String {
        switch random.int(0...4) {
        case 0: return "\(random.pick(FuzzValues.numbers))-\(random.pick(FuzzValues.numbers))"
        case 1: return "\(random.pick(FuzzValues.numbers))-"
        case 2: return "items=0-10"
        case 3: return "0-\(Int.max)"
        default: return random.pick(["-", "--", "5-3", "", "0-0", "a-b"])
        }
    }

    // MARK: - Bodies

    /// JSON shaped like a row, an array of rows, deep nesting, wrong types, or no JSON at all.
    mutating func body(columns: [String]) -> Data {
        switch random.int(0...9) {
        case 0: return Data(random.pick(["", "{", "[", "nul", "{\"a\":}", "\u{0}", "[[[", "{\"a\":1,\"a\":2}", "1e999999"]).utf8)
        case 1:
            let depth = random.int(100...3_000)
            return Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        case 2:
            let depth = random.int(100...3_000)
            return Data((String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)).utf8)
        case 3:
            let rows = (0..<random.int(0...30)).map { _ in row(columns) }
            return Data(("[" + rows.joined(separator: ",") + "]").utf8)
        default:
            return Data(row(columns).utf8)
        }
    }

    private mutating func row(_ columns: [String]) -> String {
        let keys = (0..<random.int(0...6)).map { _ in random.chance(0.85) ? random.pick(columns) : random.pick(FuzzValues.strings) }
        return "{" + keys.map { "\(jsonString($0)):\(jsonValue(depth: 3))" }.joined(separator: ",") + "}"
    }

    mutating func jsonValue(depth: Int) -> String {
        switch random.int(0...9) {
        case 0: return "null"
        case 1: return random.pick(["true", "false"])
        case 2...3:
            let number = random.pick(FuzzValues.numbers)
            return Double(number) != nil && !number.contains(" ") && !number.hasPrefix("+") && number.lowercased() != "nan"
                && number.lowercased() != "infinity" && !number.hasPrefix("0x") ? number : "1e400"
        case 4 where depth > 0: return "[" + (0..<random.int(0...3)).map { _ in jsonValue(depth: depth - 1) }.joined(separator: ",") + "]"
        case 5 where depth > 0: return "{\"k\":\(jsonValue(depth: depth - 1))}"
        case 6: return jsonString(String(repeating: random.pick(FuzzValues.strings), count: random.int(1...500)))
        default: return jsonString(random.pick(FuzzValues.strings))
        }
    }

    func jsonString(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    // MARK: - Functions and sign-in

    private static let fieldNames = [
        "checkInInterval", "interval", "limit", "offset", "after", "cursor", "phone", "userId", "user_id", "contactId", "contact_id",
        "qrCodeId", "qr_code_id", "isResponder", "isDependent", "name", "note", "emergencyNote", "path", "data", "fields", "token",
        "topic", "message", "title", "body", "id", "kind", "table", "status", "sortOrder", "durationMinutes", "day", "from", "to",
        "latitude", "longitude", "reminderLead", "notify30MinBefore", "query", "filters", "merge", "collection", "alertId", "pingId",
    ]

    private mutating func function() -> FuzzRequest {
        let name = random.chance(0.95) ? random.pick(functions) : random.pick(["nope", "", "..%2F..", "check-in%00"])
        var request = FuzzRequest(method: random.chance(0.95) ? "POST" : random.pick(["GET", "PUT", "DELETE"]), path: "/functions/v1/\(name)")
        request.bearer = random.pick(bearers)
        // URLSession refuses to send a GET with a body, so only other verbs carry one.
        if request.method != "GET" { request.body = random.chance(0.8) ? Data(functionBody().utf8) : body(columns: Self.fieldNames) }
        if random.chance(0.1) { request.headers["Content-Type"] = random.pick(FuzzValues.contentTypes) }
        return request
    }

    private mutating func functionBody() -> String {
        let keys = (0..<random.int(0...6)).map { _ in random.pick(Self.fieldNames) }
        return "{" + keys.map { "\(jsonString($0)):\(jsonValue(depth: 3))" }.joined(separator: ",") + "}"
    }

    private mutating func auth() -> FuzzRequest {
        let path = random.pick([
            "/auth/v1/otp", "/auth/v1/verify", "/auth/v1/token?grant_type=password", "/auth/v1/token?grant_type=refresh_token",
            "/auth/v1/token?grant_type=\(encode(random.pick(FuzzValues.strings)))", "/auth/v1/signup", "/auth/v1/user",
            "/auth/v1/logout",
        ])
        var request = FuzzRequest(method: path == "/auth/v1/user" ? random.pick(["GET", "PUT"]) : "POST", path: path)
        request.bearer = random.chance(0.5) ? random.pick(bearers) : nil
        let fields = ["phone", "email", "password", "token", "type", "refresh_token", "data", "code"]
        let keys = (0..<random.int(0...4)).map { _ in random.pick(fields) }
        guard request.method != "GET" else { return request }
        request.body = Data(("{" + keys.map { "\(jsonString($0)):\(jsonValue(depth: 2))" }.joined(separator: ",") + "}").utf8)
        return request
    }

    /// Percent-encodes everything but unreserved characters, so any generated text is a valid URL.
    func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~(),*:")
}
