import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, for tests that run the `lifesignal` executable or
/// a Python stand-in.
///
/// Foundation's `Process.run()` on Linux can crash the whole test process: it reads
/// `/proc/self/fd` to close inherited descriptors and can read past a directory entry's name
/// (swift-corelibs-foundation, fixed upstream after 6.3.1). The odds grow with every child the
/// suite starts. Here the pipes are made close-on-exec, and the child closes every descriptor
/// from 3 up (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34), so no child keeps
/// another's pipe or a test server's socket open.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    /// The read ends of the child's standard output and error, and the write end of its input.
    public let output: FileHandle
    public let error: FileHandle
    public let input: FileHandle
    private let lock = NSLock()
    private var exitStatus: Int32?

    public struct SpawnFailed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `executable` with `arguments` and exactly `environment`.
    public init(executable: String, arguments: [String], environment: [String: String]) throws {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], inPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0, pipe(&inPipe) == 0 else {
            throw SpawnFailed(description: "pipe failed: errno \(errno)")
        }
        // Close-on-exec, so children started by other means do not keep these open either.
        for fd in outPipe + errPipe + inPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        guard let closeFrom = Self.addCloseFrom else { throw SpawnFailed(description: "posix_spawn_file_actions_addclosefrom_np is missing (glibc < 2.34)") }
        _ = closeFrom(&actions, 3)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        close(inPipe[0])
        guard status == 0 else {
            for fd in [outPipe[0], errPipe[0], inPipe[1]] { close(fd) }
            throw SpawnFailed(description: "posix_spawn \(executable) failed: \(String(cString: strerror(status)))")
        }
        pid = child
        output = FileHandle(fileDescriptor: outPipe[0], closeOnDealloc: true)
        error = FileHandle(fileDescriptor: errPipe[0], closeOnDealloc: true)
        input = FileHandle(fileDescriptor: inPipe[1], closeOnDealloc: true)
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// Blocks until the child exits; its exit code, or 128 + the signal that ended it.
    @discardableResult
    public func waitForExit() -> Int32 {
        if let known = lock.withLock({ exitStatus }) { return known }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        lock.withLock { exitStatus = code }
        return code
    }

    public var isRunning: Bool {
        if lock.withLock({ exitStatus }) != nil { return false }
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0 ? true : {
            let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            lock.withLock { exitStatus = code }
            return false
        }()
    }

    public func terminate() {
        if isRunning { kill(pid, SIGTERM) }
    }

    /// Runs to the end and returns the exit code and everything written, reading both pipes on
    /// dispatch threads (blocking reads must stay off the cooperative pool: on two cores they
    /// would starve the in-process server the child talks to).
    public static func run(executable: String, arguments: [String], environment: [String: String]) async throws
        -> (status: Int32, output: String, error: String) {
        let child = try ChildProcess(executable: executable, arguments: arguments, environment: environment)
        try? child.input.close()
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                // Read before waiting, so a full pipe cannot stall the child.
                let outData = child.output.readDataToEndOfFile()
                let errData = child.error.readDataToEndOfFile()
                let status = child.waitForExit()
                continuation.resume(returning: (status, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self)))
            }
        }
    }
}
