import Foundation

extension BackendFunctions {
    /// The field of a request body holding a number no `Int` field can take (`1.5`, `1e300`,
    /// thirty digits), as `("record.sort_order", "1e+300")`, or `nil`.
    ///
    /// Foundation's `JSONDecoder` on Linux refuses such a number in an `Int` field as "not
    /// valid JSON", without the field's path; this names the field instead. It runs only after
    /// a decode failed, so a valid request pays nothing. Values under a `double` key are
    /// ``DocumentValue`` doubles, never `Int` fields, and are passed over.
    static func unwholeNumber(in body: Data) -> (path: String, number: String)? {
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else { return nil }
        return unwholeNumber(in: object, path: [])
    }

    /// Depth-first in key order, so the same body always names the same field. The depth is
    /// the body's own, which the JSON reader already bounded.
    private static func unwholeNumber(in value: Any, path: [String]) -> (path: String, number: String)? {
        switch value {
        case let map as [String: Any]:
            for (key, inner) in map.sorted(by: { $0.key < $1.key }) where key != "double" {
                if let found = unwholeNumber(in: inner, path: path + [key]) { return found }
            }
        case let list as [Any]:
            for (index, inner) in list.enumerated() {
                if let found = unwholeNumber(in: inner, path: path + [String(index)]) { return found }
            }
        case let number as NSNumber:
            let text = number.stringValue
            if Int(text) != nil { return nil }
            // `3.0` and `1e2` are whole, and the decoder takes them.
            if let double = Double(text), double.rounded() == double, abs(double) < 9.2e18 { return nil }
            return (path.joined(separator: "."), text)
        default:
            break
        }
        return nil
    }

    /// The refusal of a body whose decode failed on a number, naming the field and the range.
    static func unwholeNumberFailure(in body: Data) -> Failure? {
        unwholeNumber(in: body).map { found in
            .badRequest("Invalid value for \(found.path): \(found.number) is not a whole number from \(Int.min) to \(Int.max)")
        }
    }
}
