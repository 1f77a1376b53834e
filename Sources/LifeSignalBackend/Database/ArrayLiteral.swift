import Foundation

/// PostgreSQL's array text form (`{a,"b,c",NULL}`), which PostgREST's `cs`/`cd`/`ov` filters
/// take and array columns accept. On SQLite an array column holds a JSON array instead, so
/// the layers above convert between the two; on PostgreSQL the text goes as it is.
public enum ArrayLiteral {
    /// The elements of a one-dimensional literal, `nil` for `NULL`; `nil` when malformed.
    public static func parse(_ text: String) -> [String?]? {
        let characters = Array(text.trimmingCharacters(in: .whitespaces))
        guard characters.first == "{", characters.last == "}" else { return nil }
        var elements: [String?] = []
        var index = 1
        let end = characters.count - 1
        func skipSpaces() { while index < end, characters[index] == " " { index += 1 } }
        skipSpaces()
        if index == end { return [] }
        while index <= end {
            skipSpaces()
            var element = ""
            if index < end, characters[index] == "\"" {
                index += 1
                while index < end, characters[index] != "\"" {
                    if characters[index] == "\\" { index += 1 }
                    guard index < end else { return nil }
                    element.append(characters[index])
                    index += 1
                }
                guard index < end else { return nil }  // unterminated quote
                index += 1
                elements.append(element)
                skipSpaces()
            } else {
                while index < end, characters[index] != "," {
                    guard !"{}\"\\".contains(characters[index]) else { return nil }
                    element.append(characters[index])
                    index += 1
                }
                element = element.trimmingCharacters(in: .whitespaces)
                guard !element.isEmpty else { return nil }
                elements.append(element.uppercased() == "NULL" ? nil : element)
            }
            if index == end { return elements }
            guard characters[index] == "," else { return nil }
            index += 1
        }
        return nil
    }

    /// A JSON array of scalars as an array literal, every element quoted.
    public static func format(_ elements: [String?]) -> String {
        "{"
            + elements.map { element in
                guard let element else { return "NULL" }
                return "\"" + element.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            }.joined(separator: ",") + "}"
    }
}
