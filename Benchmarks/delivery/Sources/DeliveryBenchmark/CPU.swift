import Foundation

/// CPU time from `/proc` (Linux), to say who was busy while messages went out: the machine,
/// this process, the stand-ins (`BENCH_STANDIN_PIDS`, Twilio SMTP APNs) and PostgreSQL's
/// processes (the children of `BENCH_POSTMASTER`, when run.sh started the cluster).
struct CPUSample {
    var machineBusy = 0.0, machineTotal = 0.0
    var own = 0.0
    var standIns: [Double] = []
    var postgres = 0.0

    static let tick = 100.0

    static func now() -> CPUSample {
        var sample = CPUSample()
        if let line = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8))?.split(separator: "\n").first {
            let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
            if fields.count >= 7 {
                sample.machineBusy = fields[0] + fields[1] + fields[2] + fields[5] + fields[6]
                sample.machineTotal = fields.prefix(7).reduce(0, +)
            }
        }
        sample.own = stat(of: "self").map(\.cpu) ?? 0
        let environment = ProcessInfo.processInfo.environment
        sample.standIns = (environment["BENCH_STANDIN_PIDS"] ?? "").split(separator: " ").map { stat(of: String($0))?.cpu ?? 0 }
        if let postmaster = environment["BENCH_POSTMASTER"].flatMap({ Int($0) }),
           let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") {
            for entry in entries where Int(entry) != nil {
                if let process = stat(of: entry), process.parent == postmaster || Int(entry) == postmaster { sample.postgres += process.cpu }
            }
        }
        return sample
    }

    /// User + system seconds and the parent of one process.
    private static func stat(of pid: String) -> (cpu: Double, parent: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces): state, ppid, … utime is 14th overall.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let parent = Int(fields[1]), let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return ((user + system) / tick, parent)
    }

    /// What was busy between `self` and `later`, over `seconds` of wall time.
    func report(until later: CPUSample, seconds: Double) -> String {
        let total = later.machineTotal - machineTotal
        let busy = total > 0 ? 100 * (later.machineBusy - machineBusy) / total : 0
        var parts = [String(format: "machine %.0f%% busy of %d cores", busy, ProcessInfo.processInfo.activeProcessorCount),
                     String(format: "this process %.1f s", later.own - own)]
        for (name, (before, after)) in zip(["Twilio", "SMTP", "APNs"], zip(standIns, later.standIns)) {
            parts.append("\(name) stand-in " + String(format: "%.1f s", after - before))
        }
        if later.postgres > 0 { parts.append(String(format: "PostgreSQL %.1f s", later.postgres - postgres)) }
        return String(format: "CPU over %.1f s: ", seconds) + parts.joined(separator: ", ")
    }
}
