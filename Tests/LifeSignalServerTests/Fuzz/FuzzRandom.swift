import Foundation
import LifeSignalTestSupport

/// The fuzz test's generator (``SeededRandom``), seeded from the environment to reproduce a run.
typealias FuzzRandom = SeededRandom

extension SeededRandom {
    /// The seed of this run: `LIFESIGNAL_FUZZ_SEED` when set (to reproduce a failure), else random.
    static func seedFromEnvironment() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["LIFESIGNAL_FUZZ_SEED"], let seed = UInt64(text) { return seed }
        return UInt64.random(in: 1...UInt64.max)
    }

    /// How many requests per engine: `LIFESIGNAL_FUZZ_COUNT` (scripts/fuzz runs thousands more).
    static func countFromEnvironment(default fallback: Int) -> Int {
        ProcessInfo.processInfo.environment["LIFESIGNAL_FUZZ_COUNT"].flatMap(Int.init) ?? fallback
    }
}

/// Values chosen to sit at and just past every limit and every numeric boundary.
enum FuzzValues {
    static let numbers = [
        "0", "1", "-1", "2", "10", "199", "200", "201", "999", "1000", "1001", "65535", "2147483647", "2147483648",
        "-2147483649", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "99999999999999999999999999999", "1e3", "1e308", "1e309", "-1e309", "1.5", "NaN", "Infinity", "0x10", "+5", " 5",
        "٣", "", "abc",
    ]

    static let strings = [
        "x", "", " ", "null", "true", "NULL", "O'Brien", "a\"b", "a,b", "a(b", "a)b", "(", ")", "{a,b}", "{", "}", "\\", "\\\\",
        "%", "_", "*", "a*b", "[", "[a-z]", "'); DROP TABLE users; --", "$1", "$$", "\u{301}", "\"\u{301}", "é", "e\u{301}",
        "日本語", "🧯", "\u{202E}rtl", "\u{FEFF}", "\u{10FFFF}", "0000-01-01", "9999-12-31T23:59:59Z", "99999-01-01",
        "2026-02-30", "00000000-0000-0000-0000-000000000000", "not-a-uuid", "+15550001111", "+999999999999999999",
    ]

    static let operators = [
        "eq", "neq", "gt", "gte", "lt", "lte", "like", "ilike", "is", "in", "cs", "cd", "ov",
        "fts", "match", "isdistinct", "", "EQ", "eq ", "not",
    ]

    static let acceptHeaders = [
        "application/json", "*/*", "application/vnd.pgrst.object+json", "application/vnd.pgrst.object", "text/csv",
        "unknown/unknown", "application/json;q=0", "", ",,,", "text/html, */*;q=0.1", "application/vnd.pgrst.array",
    ]

    static let preferences = [
        "count=exact", "count=planned", "count=estimated", "return=representation", "return=minimal", "return=headers-only",
        "resolution=merge-duplicates", "resolution=ignore-duplicates", "missing=default", "handling=strict", "tx=rollback",
        "max-affected=1", "garbage", "count=exact, return=representation", "=", ",,",
    ]

    static let contentTypes = [
        "application/json", "text/plain", "application/x-www-form-urlencoded", "text/csv", "",
        "application/json; charset=latin1", "multipart/form-data; boundary=x",
    ]
}
