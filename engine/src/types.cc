#include "cuzk/engine/types.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace cuzk::engine {

std::string_view proof_kind_name(ProofKind kind) {
  switch (kind) {
    case ProofKind::kUnspecified: return "PROOF_KIND_UNSPECIFIED";
    case ProofKind::kPorepSealCommit: return "POREP_SEAL_COMMIT";
    case ProofKind::kSnapDealsUpdate: return "SNAP_DEALS_UPDATE";
    case ProofKind::kWindowPostPartition: return "WINDOW_POST_PARTITION";
    case ProofKind::kWinningPost: return "WINNING_POST";
    case ProofKind::kGroth16Circuit: return "GROTH16_CIRCUIT";
  }
  return "UNKNOWN_KIND";
}

std::string_view priority_name(Priority priority) {
  switch (priority) {
    case Priority::kUnspecified: return "PRIORITY_UNSPECIFIED";
    case Priority::kLow: return "LOW";
    case Priority::kNormal: return "NORMAL";
    case Priority::kHigh: return "HIGH";
    case Priority::kCritical: return "CRITICAL";
  }
  return "UNKNOWN_PRIORITY";
}

std::string_view job_outcome_name(JobOutcome outcome) {
  switch (outcome) {
    case JobOutcome::kUnknown: return "UNKNOWN";
    case JobOutcome::kCompleted: return "COMPLETED";
    case JobOutcome::kFailed: return "FAILED";
    case JobOutcome::kCancelled: return "CANCELLED";
    case JobOutcome::kTimeout: return "TIMEOUT";
  }
  return "UNKNOWN";
}

std::string_view job_state_name(JobState state) {
  switch (state) {
    case JobState::kQueued: return "queued";
    case JobState::kPreparing: return "preparing";
    case JobState::kWaitingWorker: return "waiting_worker";
    case JobState::kRunning: return "running";
    case JobState::kFinalizing: return "finalizing";
    case JobState::kDone: return "done";
  }
  return "unknown";
}

std::string_view partition_state_name(PartitionState state) {
  switch (state) {
    case PartitionState::kQueued: return "queued";
    case PartitionState::kAdmitting: return "admitting";
    case PartitionState::kPreparing: return "preparing";
    case PartitionState::kWaitingWorker: return "waiting_worker";
    case PartitionState::kProving: return "proving";
    case PartitionState::kFinalizing: return "finalizing";
    case PartitionState::kDone: return "done";
    case PartitionState::kFailed: return "failed";
    case PartitionState::kCancelled: return "cancelled";
  }
  return "unknown";
}

bool parse_priority(std::string_view text, Priority* out) {
  std::string t(text);
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (t == "low") *out = Priority::kLow;
  else if (t == "normal") *out = Priority::kNormal;
  else if (t == "high") *out = Priority::kHigh;
  else if (t == "critical") *out = Priority::kCritical;
  else return false;
  return true;
}

Priority effective_priority(ProofKind kind, Priority requested) {
  if (requested != Priority::kUnspecified) return requested;
  if (kind == ProofKind::kWinningPost) return Priority::kCritical;
  if (kind == ProofKind::kWindowPostPartition) return Priority::kHigh;
  return Priority::kNormal;
}

bool is_known_kind(int kind) { return (kind >= 0 && kind <= 4) || kind == 100; }

bool is_known_priority(int priority) { return priority >= 0 && priority <= 4; }

}  // namespace cuzk::engine
