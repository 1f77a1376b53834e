extension SQL {
    /// The statement with every parameter written in as a literal, for statements that must
    /// travel as text (PL/pgSQL's `EXECUTE`, as the PostgreSQL engine's caller reads do).
    ///
    /// Each literal keeps the type its binding would have had: text, integers, floats and
    /// uuids are cast to the type postgres-nio binds them as, and ``SQLValue/literal(_:)``
    /// stays untyped so PostgreSQL infers its type from context, as with a bound parameter.
    /// Strings are written as `E'…'` with backslashes and quotes doubled, which reads the same
    /// whatever `standard_conforming_strings` says. Returns `nil` when a value cannot be
    /// written safely as text — a NUL character (which would end the query text early),
    /// timestamps, JSON or bytes — so the caller binds parameters the usual way instead.
    public func inlined() -> String? {
        var output = ""
        output.reserveCapacity(text.utf8.count + bindings.count * 8)
        var failed = false
        Self.forEachPlaceholder(in: text) { piece in
            switch piece {
            case .text(let chunk): output += chunk
            case .placeholder(let number):
                guard number >= 1, number <= bindings.count, let literal = Self.literal(bindings[number - 1]) else {
                    failed = true
                    return
                }
                output += literal
            }
        }
        return failed ? nil : output
    }

    /// `value` as a PostgreSQL literal of the type postgres-nio would bind it as.
    static func literal(_ value: SQLValue) -> String? {
        switch value {
        case .null: return "NULL"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return "'\(number)'::int8"
        case .double(let number): return "'\(number)'::float8"
        case .uuid(let uuid): return "'\(uuid.uuidString.lowercased())'::uuid"
        case .text(let text): return quoted(text).map { $0 + "::text" }
        case .literal(let text): return quoted(text)
        case .timestamp, .json, .bytes: return nil
        }
    }

    private static func quoted(_ text: String) -> String? {
        var output = "E'"
        output.reserveCapacity(text.utf8.count + 4)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\0": return nil
            case "'": output += "''"
            case "\\": output += "\\\\"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "'"
    }
}
