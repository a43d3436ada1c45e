// Shared pieces of the `cuzk filecoin` commands (cmd_filecoin.cc,
// cmd_filecoin_dev.cc): argument parsing of commitments, proof types and
// ids, and file helpers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/filecoin/cid.h"
#include "cuzk/filecoin/node.h"
#include "cuzk/filecoin/proof_types.h"

namespace cuzk::app {

// 64 hex digits (storage byte order), or a commitment CID of `kind`.
StatusOr<filecoin::Node> parse_commitment(const std::string& text, filecoin::CommitmentKind kind, const char* what);
// 64 hex digits.
StatusOr<filecoin::Node> parse_node_hex(const std::string& text, const char* what);
// --prover-id HEX or --miner-id N (exactly one).
StatusOr<filecoin::Node> parse_prover(const std::string& prover_hex, int64_t miner_id);

// A registered proof given as its number or its name.
StatusOr<filecoin::SealProofInfo> parse_seal_proof(const std::string& text);
StatusOr<filecoin::PoStProofInfo> parse_post_proof(const std::string& text);
StatusOr<filecoin::UpdateProofInfo> parse_update_proof(const std::string& text);

// A --sector-size: parse_byte_size (base/byte_size.h: "2KiB", "2K", "32GiB",
// or bytes; binary units), with errors naming the flag.
StatusOr<uint64_t> parse_sector_size(const std::string& text);

StatusOr<std::string> read_whole_file(const std::string& path);
Status write_text_file(const std::string& path, const std::string& text);

// A fresh field element from the OS CSPRNG, as a node (tickets, seeds, data).
filecoin::Node random_node();

}  // namespace cuzk::app
