// Vocabulary of the proving engine: proof kinds, priorities, job and
// partition states. The numeric values of ProofKind, Priority and
// JobOutcome are the cuzk.v1 wire values (docs/api.md), so the server maps
// them one to one.
#pragma once

#include <cstdint>
#include <string_view>

namespace cuzk::engine {

enum class ProofKind : int {
  kUnspecified = 0,
  kPorepSealCommit = 1,
  kSnapDealsUpdate = 2,
  kWindowPostPartition = 3,
  kWinningPost = 4,
  kGroth16Circuit = 100,
};

// Higher value = served first.
enum class Priority : int { kUnspecified = 0, kLow = 1, kNormal = 2, kHigh = 3, kCritical = 4 };

// How a job ended, as AwaitProof reports it.
enum class JobOutcome : int { kUnknown = 0, kCompleted = 1, kFailed = 2, kCancelled = 3, kTimeout = 4 };

// Where a job is. A job's state is that of its least advanced live partition.
enum class JobState : int { kQueued, kPreparing, kWaitingWorker, kRunning, kFinalizing, kDone };

// Where a partition is in the pipeline (docs/design.md, data flow).
enum class PartitionState : int {
  kQueued,         // waiting for a preparation worker
  kAdmitting,      // key acquired, waiting for its memory reservation
  kPreparing,      // witness intake and checks
  kWaitingWorker,  // prepared, waiting for a prover worker
  kProving,        // inside a prover worker
  kFinalizing,     // verification and encoding
  kDone,
  kFailed,
  kCancelled,
};

std::string_view proof_kind_name(ProofKind kind);      // "GROTH16_CIRCUIT", ...
std::string_view priority_name(Priority priority);     // "NORMAL", ...
std::string_view job_outcome_name(JobOutcome outcome);  // "COMPLETED", ...
std::string_view job_state_name(JobState state);       // "queued", ...
std::string_view partition_state_name(PartitionState state);

// Parses "low", "normal", "high", "critical" (any case). False otherwise.
bool parse_priority(std::string_view text, Priority* out);

// The priority a request without one gets: WinningPoSt CRITICAL, WindowPoSt
// HIGH, everything else NORMAL.
Priority effective_priority(ProofKind kind, Priority requested);

// Whether the kind is one of the wire enum's values.
bool is_known_kind(int kind);
// Whether the priority is one of the wire enum's values (unspecified included).
bool is_known_priority(int priority);

}  // namespace cuzk::engine
