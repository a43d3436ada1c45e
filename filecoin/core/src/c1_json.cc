#include "cuzk/filecoin/c1_json.h"

#include <set>

#include "cuzk/filecoin/proof_types.h"
#include "json_reader.h"

namespace cuzk::filecoin {

namespace {

using json::Reader;
using json::Writer;

enum class Domain { kSha256, kPoseidon };

// Reads an object, handing each key to on_key(key, path) (which returns
// false for keys it does not know: those are skipped); then checks that
// every required key was seen.
template <class F>
Status read_object(Reader& r, const std::string& field, const std::vector<const char*>& required, F&& on_key) {
  RETURN_IF_ERROR(r.begin_object(field));
  std::set<std::string> seen;
  std::string key;
  for (;;) {
    ASSIGN_OR_RETURN(bool more, r.next_key(field, &key));
    if (!more) break;
    const std::string path = field.empty() ? key : field + "." + key;
    ASSIGN_OR_RETURN(bool known, on_key(key, path));
    if (!known) RETURN_IF_ERROR(r.skip_value(path));
    seen.insert(key);
  }
  for (const char* k : required)
    if (!seen.count(k)) return r.error(field, std::string("missing field \"") + k + "\"");
  return ok_status();
}

// Reads an array, calling on_element(index, path) for each element.
template <class F>
Status read_array(Reader& r, const std::string& field, size_t max_elements, F&& on_element) {
  RETURN_IF_ERROR(r.begin_array(field));
  for (size_t i = 0;; ++i) {
    ASSIGN_OR_RETURN(bool more, r.next_element(field));
    if (!more) return ok_status();
    if (i >= max_elements) return r.error(field, "more than " + std::to_string(max_elements) + " elements");
    RETURN_IF_ERROR(on_element(i, field + "[" + std::to_string(i) + "]"));
  }
}

Status read_node(Reader& r, const std::string& field, Domain d, Node* n) {
  RETURN_IF_ERROR(r.read_node(field, n));
  if (d == Domain::kPoseidon && !fr_from_node(*n).ok()) return r.error(field, "not a field element");
  return ok_status();
}

// Generous bounds that no valid proof reaches: they only keep a hostile
// input from growing vectors without limit before another check fails.
constexpr size_t kMaxPath = 64, kMaxArity = 64, kMaxVec = 1 << 20;

Status read_nodes(Reader& r, const std::string& field, Domain d, size_t max, std::vector<Node>* out) {
  return read_array(r, field, max, [&](size_t, const std::string& f) {
    out->emplace_back();
    return read_node(r, f, d, &out->back());
  });
}

Status read_path(Reader& r, const std::string& field, Domain d, std::vector<PathElement>* out) {
  return read_object(r, field, {"path"}, [&](const std::string& key, const std::string& f) -> StatusOr<bool> {
    if (key != "path") return false;
    RETURN_IF_ERROR(read_array(r, f, kMaxPath, [&](size_t, const std::string& ef) {
      out->emplace_back();
      PathElement& e = out->back();
      return read_object(r, ef, {"hashes", "index"}, [&](const std::string& k, const std::string& kf) -> StatusOr<bool> {
        if (k == "hashes") RETURN_IF_ERROR(read_nodes(r, kf, d, kMaxArity, &e.hashes));
        else if (k == "index") RETURN_IF_ERROR(r.read_u64(kf, &e.index));
        else return false;
        return true;
      });
    }));
    return true;
  });
}

Status read_proof_body(Reader& r, const std::string& field, Domain d, MerkleProof* p) {
  const bool single = p->kind == MerkleProof::Kind::kSingle, top = p->kind == MerkleProof::Kind::kTop;
  static const std::vector<const char*> kSingle = {"root", "leaf", "path"};
  static const std::vector<const char*> kSub = {"base_proof", "sub_proof", "root", "leaf"};
  static const std::vector<const char*> kTop = {"base_proof", "sub_proof", "top_proof", "root", "leaf"};
  const std::vector<const char*>& required = single ? kSingle : top ? kTop : kSub;
  return read_object(r, field, required, [&](const std::string& key, const std::string& f) -> StatusOr<bool> {
    if (key == "root") RETURN_IF_ERROR(read_node(r, f, d, &p->root));
    else if (key == "leaf") RETURN_IF_ERROR(read_node(r, f, d, &p->leaf));
    else if (key == (single ? "path" : "base_proof")) RETURN_IF_ERROR(read_path(r, f, d, &p->base));
    else if (!single && key == "sub_proof") RETURN_IF_ERROR(read_path(r, f, d, &p->sub));
    else if (top && key == "top_proof") RETURN_IF_ERROR(read_path(r, f, d, &p->top));
    else return false;
    return true;
  });
}

Status read_merkle_proof(Reader& r, const std::string& field, Domain d, MerkleProof* p) {
  return read_object(r, field, {"data"}, [&](const std::string& key, const std::string& f) -> StatusOr<bool> {
    if (key != "data") return false;
    int variants = 0;
    RETURN_IF_ERROR(read_object(r, f, {}, [&](const std::string& v, const std::string& vf) -> StatusOr<bool> {
      if (v == "Single") p->kind = MerkleProof::Kind::kSingle;
      else if (v == "Sub") p->kind = MerkleProof::Kind::kSub;
      else if (v == "Top") p->kind = MerkleProof::Kind::kTop;
      else return r.error(vf, "unknown proof variant \"" + v + "\" (Single, Sub or Top)");
      if (++variants > 1) return r.error(vf, "more than one proof variant");
      RETURN_IF_ERROR(read_proof_body(r, vf, d, p));
      return true;
    }));
    if (variants != 1) return r.error(f, "no proof variant");
    return true;
  });
}

Status read_column_proof(Reader& r, const std::string& field, ColumnProof* c) {
  return read_object(r, field, {"column", "inclusion_proof"}, [&](const std::string& key, const std::string& f) -> StatusOr<bool> {
    if (key == "inclusion_proof") {
      RETURN_IF_ERROR(read_merkle_proof(r, f, Domain::kPoseidon, &c->inclusion_proof));
    } else if (key == "column") {
      RETURN_IF_ERROR(read_object(r, f, {"index", "rows"}, [&](const std::string& k, const std::string& kf) -> StatusOr<bool> {
        if (k == "index") {
          uint64_t v;
          RETURN_IF_ERROR(r.read_u64(kf, &v));
          if (v > UINT32_MAX) return r.error(kf, "does not fit in u32");
          c->index = uint32_t(v);
        } else if (k == "rows") {
          RETURN_IF_ERROR(read_nodes(r, kf, Domain::kPoseidon, kMaxPath, &c->rows));
        } else {
          return false;
        }
        return true;
      }));
    } else {
      return false;
    }
    return true;
  });
}

Status read_columns(Reader& r, const std::string& field, std::vector<ColumnProof>* out) {
  return read_array(r, field, kMaxArity, [&](size_t, const std::string& f) {
    out->emplace_back();
    return read_column_proof(r, f, &out->back());
  });
}

Status read_labeling_proof(Reader& r, const std::string& field, LabelingProof* p) {
  return read_object(r, field, {"parents", "layer_index", "node"}, [&](const std::string& key, const std::string& f) -> StatusOr<bool> {
    if (key == "parents") {
      RETURN_IF_ERROR(read_nodes(r, f, Domain::kPoseidon, kMaxArity, &p->parents));
    } else if (key == "layer_index") {
      uint64_t v;
      RETURN_IF_ERROR(r.read_u64(f, &v));
      if (v > UINT32_MAX) return r.error(f, "does not fit in u32");
      p->layer_index = uint32_t(v);
    } else if (key == "node") {
      RETURN_IF_ERROR(r.read_u64(f, &p->node));
    } else {
      return false;
    }
    return true;
  });
}

Status read_challenge_proof(Reader& r, const std::string& field, PoRepChallengeProof* p) {
  return read_object(
      r, field, {"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs", "labeling_proofs", "encoding_proof"},
      [&](const std::string& key, const std::string& f) -> StatusOr<bool> {
        if (key == "comm_d_proofs") {
          RETURN_IF_ERROR(read_merkle_proof(r, f, Domain::kSha256, &p->comm_d_proof));
        } else if (key == "comm_r_last_proof") {
          RETURN_IF_ERROR(read_merkle_proof(r, f, Domain::kPoseidon, &p->comm_r_last_proof));
        } else if (key == "replica_column_proofs") {
          ReplicaColumnProof& rcp = p->replica_column_proofs;
          RETURN_IF_ERROR(read_object(r, f, {"c_x", "drg_parents", "exp_parents"},
                                      [&](const std::string& k, const std::string& kf) -> StatusOr<bool> {
                                        if (k == "c_x") RETURN_IF_ERROR(read_column_proof(r, kf, &rcp.c_x));
                                        else if (k == "drg_parents") RETURN_IF_ERROR(read_columns(r, kf, &rcp.drg_parents));
                                        else if (k == "exp_parents") RETURN_IF_ERROR(read_columns(r, kf, &rcp.exp_parents));
                                        else return false;
                                        return true;
                                      }));
        } else if (key == "labeling_proofs") {
          RETURN_IF_ERROR(read_array(r, f, kMaxPath, [&](size_t, const std::string& ef) {
            p->labeling_proofs.emplace_back();
            return read_labeling_proof(r, ef, &p->labeling_proofs.back());
          }));
        } else if (key == "encoding_proof") {
          RETURN_IF_ERROR(read_labeling_proof(r, f, &p->encoding_proof));
        } else {
          return false;
        }
        return true;
      });
}

Status read_vanilla_proofs(Reader& r, const std::string& field, SealCommitPhase1Output* c1, std::string* key_out) {
  int keys = 0;
  RETURN_IF_ERROR(read_object(r, field, {}, [&](const std::string& key, const std::string& f) -> StatusOr<bool> {
    if (++keys > 1) return r.error(f, "more than one proof type");
    *key_out = key;
    RETURN_IF_ERROR(read_array(r, f, kMaxVec, [&](size_t, const std::string& pf) {
      c1->vanilla_proofs.emplace_back();
      return read_array(r, pf, kMaxVec, [&](size_t, const std::string& cf) {
        c1->vanilla_proofs.back().emplace_back();
        return read_challenge_proof(r, cf, &c1->vanilla_proofs.back().back());
      });
    }));
    return true;
  }));
  if (keys != 1) return r.error(field, "no proof type");
  return ok_status();
}

}  // namespace

StatusOr<SealCommitPhase1Output> parse_c1_output(std::string_view text) {
  Reader r(text, "C1 output");
  SealCommitPhase1Output c1;
  std::string vanilla_key;
  RETURN_IF_ERROR(read_object(
      r, "", {"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket"},
      [&](const std::string& key, const std::string& f) -> StatusOr<bool> {
        if (key == "registered_proof") RETURN_IF_ERROR(r.read_string(f, &c1.registered_proof));
        else if (key == "vanilla_proofs") RETURN_IF_ERROR(read_vanilla_proofs(r, f, &c1, &vanilla_key));
        else if (key == "comm_r") RETURN_IF_ERROR(read_node(r, f, Domain::kPoseidon, &c1.comm_r));
        else if (key == "comm_d") RETURN_IF_ERROR(read_node(r, f, Domain::kSha256, &c1.comm_d));
        else if (key == "replica_id") RETURN_IF_ERROR(read_node(r, f, Domain::kPoseidon, &c1.replica_id));
        else if (key == "seed") RETURN_IF_ERROR(read_node(r, f, Domain::kSha256, &c1.seed));
        else if (key == "ticket") RETURN_IF_ERROR(read_node(r, f, Domain::kSha256, &c1.ticket));
        else return false;
        return true;
      }));
  RETURN_IF_ERROR(r.finish());
  auto info = seal_proof_info(c1.registered_proof);
  if (!info.ok()) return info.status().with_context("C1 output: registered_proof");
  if (vanilla_key != vanilla_seal_proof_variant(*info))
    return invalid_argument("C1 output: vanilla_proofs are tagged " + vanilla_key + ", expected " +
                            std::string(vanilla_seal_proof_variant(*info)) + " for " + c1.registered_proof);
  for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k)
    if (c1.vanilla_proofs[k].empty())
      return invalid_argument("C1 output: vanilla_proofs." + vanilla_key + "[" + std::to_string(k) + "] is empty");
  return c1;
}

namespace {

void write_path(Writer& w, const std::vector<PathElement>& path) {
  w.begin_object();
  w.key("path");
  w.begin_array();
  for (const PathElement& e : path) {
    w.begin_object();
    w.key("hashes");
    w.begin_array();
    for (const Node& h : e.hashes) w.node(h);
    w.end_array();
    w.key("index");
    w.u64(e.index);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_merkle_proof(Writer& w, const MerkleProof& p) {
  w.begin_object();
  w.key("data");
  w.begin_object();
  if (p.kind == MerkleProof::Kind::kSingle) {
    w.key("Single");
    w.begin_object();
    w.key("root"), w.node(p.root);
    w.key("leaf"), w.node(p.leaf);
    w.key("path"), write_path(w, p.base);
  } else {
    w.key(p.kind == MerkleProof::Kind::kSub ? "Sub" : "Top");
    w.begin_object();
    w.key("base_proof"), write_path(w, p.base);
    w.key("sub_proof"), write_path(w, p.sub);
    if (p.kind == MerkleProof::Kind::kTop) w.key("top_proof"), write_path(w, p.top);
    w.key("root"), w.node(p.root);
    w.key("leaf"), w.node(p.leaf);
  }
  w.end_object();
  w.end_object();
  w.end_object();
}

void write_column_proof(Writer& w, const ColumnProof& c) {
  w.begin_object();
  w.key("column");
  w.begin_object();
  w.key("index"), w.u64(c.index);
  w.key("rows");
  w.begin_array();
  for (const Node& n : c.rows) w.node(n);
  w.end_array();
  w.key("_h"), w.null();
  w.end_object();
  w.key("inclusion_proof"), write_merkle_proof(w, c.inclusion_proof);
  w.end_object();
}

void write_labeling_proof(Writer& w, const LabelingProof& p) {
  w.begin_object();
  w.key("parents");
  w.begin_array();
  for (const Node& n : p.parents) w.node(n);
  w.end_array();
  w.key("layer_index"), w.u64(p.layer_index);
  w.key("node"), w.u64(p.node);
  w.end_object();
}

void write_challenge_proof(Writer& w, const PoRepChallengeProof& p) {
  w.begin_object();
  w.key("comm_d_proofs"), write_merkle_proof(w, p.comm_d_proof);
  w.key("comm_r_last_proof"), write_merkle_proof(w, p.comm_r_last_proof);
  w.key("replica_column_proofs");
  w.begin_object();
  w.key("c_x"), write_column_proof(w, p.replica_column_proofs.c_x);
  for (const auto* list : {&p.replica_column_proofs.drg_parents, &p.replica_column_proofs.exp_parents}) {
    w.key(list == &p.replica_column_proofs.drg_parents ? "drg_parents" : "exp_parents");
    w.begin_array();
    for (const ColumnProof& c : *list) write_column_proof(w, c);
    w.end_array();
  }
  w.end_object();
  w.key("labeling_proofs");
  w.begin_array();
  for (const LabelingProof& l : p.labeling_proofs) write_labeling_proof(w, l);
  w.end_array();
  w.key("encoding_proof"), write_labeling_proof(w, p.encoding_proof);
  w.end_object();
}

}  // namespace

std::string c1_output_to_json(const SealCommitPhase1Output& c1) {
  Writer w;
  w.begin_object();
  w.key("registered_proof"), w.string(c1.registered_proof);
  w.key("vanilla_proofs");
  w.begin_object();
  auto info = seal_proof_info(c1.registered_proof);
  w.key(info.ok() ? vanilla_seal_proof_variant(*info) : std::string_view(c1.registered_proof));
  w.begin_array();
  for (const auto& part : c1.vanilla_proofs) {
    w.begin_array();
    for (const auto& p : part) write_challenge_proof(w, p);
    w.end_array();
  }
  w.end_array();
  w.end_object();
  w.key("comm_r"), w.node(c1.comm_r);
  w.key("comm_d"), w.node(c1.comm_d);
  w.key("replica_id"), w.node(c1.replica_id);
  w.key("seed"), w.node(c1.seed);
  w.key("ticket"), w.node(c1.ticket);
  w.end_object();
  return w.take();
}

StatusOr<C1Envelope> parse_c1_envelope(std::string_view text) {
  Reader r(text, "C1 envelope");
  C1Envelope e;
  RETURN_IF_ERROR(read_object(r, "", {"SectorNum", "Phase1Out", "SectorSize"},
                              [&](const std::string& key, const std::string& f) -> StatusOr<bool> {
                                if (key == "SectorNum") {
                                  uint64_t v;
                                  RETURN_IF_ERROR(r.read_u64(f, &v));
                                  if (v > uint64_t(INT64_MAX)) return r.error(f, "does not fit in i64");
                                  e.sector_num = int64_t(v);
                                } else if (key == "SectorSize") {
                                  RETURN_IF_ERROR(r.read_u64(f, &e.sector_size));
                                } else if (key == "Phase1Out") {
                                  std::string b64;
                                  RETURN_IF_ERROR(r.read_string(f, &b64));
                                  if (!json::base64_decode(b64, &e.phase1_out)) return r.error(f, "not base64");
                                } else {
                                  return false;
                                }
                                return true;
                              }));
  RETURN_IF_ERROR(r.finish());
  return e;
}

std::string c1_envelope_to_json(const C1Envelope& e) {
  Writer w;
  w.begin_object();
  w.key("SectorNum"), w.u64(uint64_t(e.sector_num));
  w.key("Phase1Out"),
      w.string(json::base64_encode(ByteSpan(reinterpret_cast<const uint8_t*>(e.phase1_out.data()), e.phase1_out.size())));
  w.key("SectorSize"), w.u64(e.sector_size);
  w.end_object();
  return w.take();
}

}  // namespace cuzk::filecoin
