import Foundation

/// The pure rules of seed `004_…`'s content contract, shared by every adapter so that a
/// slug or a search term means the same thing on every backend.
public enum ContentRules {
    /// A URL-safe slug for a name: lowercase ASCII letters and digits joined by single
    /// hyphens, accents folded (`"Café du Nord!"` → `"cafe-du-nord"`).
    ///
    /// - Throws: ``DomainError/invalidArgument(_:)`` when nothing of the name survives (the
    ///   slug column is `NOT NULL UNIQUE`, and an empty slug would collide on the second try).
    public static func slugify(_ name: String) throws -> String {
        let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var slug = ""
        var pendingHyphen = false
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                if pendingHyphen, !slug.isEmpty { slug.append("-") }
                pendingHyphen = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingHyphen = true
            }
        }
        guard !slug.isEmpty else {
            throw DomainError.invalidArgument("\"\(name)\" has no letters or digits to make a slug from; give a slug")
        }
        return slug.lowercased()
    }

    /// The slug to store: the one given, if any (itself normalised), else one made from the name.
    public static func slug(_ given: String?, name: String) throws -> String {
        if let given = given?.trimmingCharacters(in: .whitespacesAndNewlines), !given.isEmpty {
            return try slugify(given)
        }
        return try slugify(name)
    }

    /// A website address as stored: trimmed, `https://` added to a bare host, `nil` for an
    /// empty one.
    ///
    /// - Throws: ``DomainError/invalidArgument(_:)`` for a scheme other than http(s) or an
    ///   address without a host.
    public static func normalizeURL(_ text: String?) throws -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        let candidate: String
        if let schemeEnd = trimmed.range(of: "://") {
            let scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
            guard scheme == "http" || scheme == "https" else {
                throw DomainError.invalidArgument("\"\(trimmed)\" is not a web address (http or https)")
            }
            candidate = scheme + trimmed[schemeEnd.lowerBound...]
        } else {
            candidate = "https://" + trimmed
        }
        guard let url = URL(string: candidate), let host = url.host, !host.isEmpty, !candidate.contains(" ") else {
            throw DomainError.invalidArgument("\"\(trimmed)\" is not a web address")
        }
        return candidate
    }

    /// The search term to apply, trimmed, or `nil` when nothing is left (the contract applies
    /// no search then). The seed's snippets test the trimmed term but send the raw one; a
    /// stray space from a text field would then hide every name, which nobody means.
    public static func searchTerm(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// The name, trimmed; refused when empty.
    public static func name(_ text: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw DomainError.invalidArgument("A name is required") }
        return trimmed
    }

    /// Whether `name` contains `term` ignoring case, as `ILIKE '%term%'` decides.
    public static func nameMatches(_ name: String, term: String?) -> Bool {
        guard let term = searchTerm(term) else { return true }
        return name.range(of: term, options: [.caseInsensitive]) != nil
    }

    /// The contract's date window for an event: `from` keeps events that start or end on or
    /// after it, or have neither date; `to` keeps events that start on or before it (so an
    /// undated event is dropped by `to`, as `start_date <= to` is not true of NULL).
    public static func eventInWindow(start: CalendarDay?, end: CalendarDay?, from: CalendarDay?, to: CalendarDay?) -> Bool {
        if let from {
            let startOK = start.map { $0 >= from } ?? false
            let endOK = end.map { $0 >= from } ?? false
            guard startOK || endOK || (start == nil && end == nil) else { return false }
        }
        if let to {
            guard let start, start <= to else { return false }
        }
        return true
    }
}

extension ContentRules {
    /// The `ILIKE` pattern for a search term: `%term%` with the term's own `%`, `_` and `\`
    /// escaped, so a search for `50%` finds "50% off" and not every name containing "50".
    public static func likePattern(_ term: String) -> String {
        var escaped = ""
        for character in term {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "%" + escaped + "%"
    }
}

extension ContentRules {
    /// `sort_order` is a 32-bit `integer` column; a larger number would fail in the database
    /// with a less helpful message.
    public static func sortOrder(_ value: Int) throws -> ContentValue {
        guard (Int(Int32.min)...Int(Int32.max)).contains(value) else {
            throw DomainError.invalidArgument("A sort order is a whole number between \(Int32.min) and \(Int32.max), not \(value)")
        }
        return .int(value)
    }

    /// A time of day as a `time` column returns it (`HH:MM:SS`), from `HH:MM` or `HH:MM:SS`.
    public static func timeOfDay(_ text: String?) throws -> ContentValue {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return .null }
        let parts = text.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        // Two ASCII digits each: `Int(_:)` alone takes a sign, so `-1:+1` would pass as a time.
        let numbers = parts.compactMap { part -> Int? in
            guard part.count == 2, part.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            return part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        guard (2...3).contains(parts.count), numbers.count == parts.count,
            numbers[0] < 24, numbers[1] < 60, numbers.count == 2 || numbers[2] < 60
        else { throw DomainError.invalidArgument("\"\(text)\" is not a time of day (HH:MM or HH:MM:SS)") }
        return .text(parts.count == 2 ? text + ":00" : text)
    }
}

extension ContentRules {
    /// The error for a write whose slug another record of `table` already has (the slug
    /// column is unique, deleted records included).
    public static func slugTaken(_ table: ContentTable, columns: ContentColumns) -> DomainError {
        let slug = columns["slug"].flatMap { if case .text(let text) = $0 { text } else { nil } } ?? ""
        return .alreadyExists("A \(table.noun.lowercased()) with the slug \"\(slug)\"")
    }

    /// The error for changing a record someone else created.
    /// Only editors (`app_metadata.role` = `editor`) write content.
    public static func notEditor(_ table: ContentTable) -> DomainError {
        .forbidden("Only content editors may add, change or delete \(table.noun.lowercased())s; an operator makes someone an editor with the service role")
    }

    public static func notCreator(_ table: ContentTable) -> DomainError {
        .forbidden("Only the person who created this \(table.noun.lowercased()) may change or delete it")
    }
}
