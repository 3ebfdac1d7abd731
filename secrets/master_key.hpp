#pragma once

#include <filesystem>

#include "base/result.hpp"
#include "secrets/aead.hpp"

// The master key file (`--secrets-key-file`): exactly kKeyBytes random bytes,
// readable by its owner only, kept outside the data folder so that a copy of
// the folder (or of an audit export) carries no key that opens its secrets.
namespace vouch::secrets {

// $XDG_CONFIG_HOME/vouch/secrets.key, else $HOME/.config/vouch/secrets.key;
// kInvalid asking for --secrets-key-file when neither variable is set.
[[nodiscard]] base::Result<std::filesystem::path> default_master_key_path();

// kInvalid when `key_file` is inside `data_folder` (or is it).
[[nodiscard]] base::Status check_outside_data_folder(const std::filesystem::path& key_file,
                                                     const std::filesystem::path& data_folder);

// The key in `path`. kInvalid naming the file and the fix when it is not a
// regular file, is readable or writable by group or others, or is not
// exactly kKeyBytes long; kNotFound when it does not exist.
[[nodiscard]] base::Result<Key> read_master_key(const std::filesystem::path& path);

// Writes a new random key to `path` with mode 0600 (its missing parent
// folders with mode 0700), synced to disk, and returns it. kInvalid when the
// file already exists or cannot be written.
[[nodiscard]] base::Result<Key> create_master_key(const std::filesystem::path& path);

}  // namespace vouch::secrets
