// Git over HTTP on 127.0.0.1 for tests of what benchpr sends where: a bare repository served with
// git's "dumb" protocol (plain files), and a listener that only records what reaches it.
#pragma once

#include <httplib.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace benchpr::testing {

// Serves the bare repository at `bare_dir` as http://127.0.0.1:PORT/acme/widgets.git and records
// the Authorization header of every request. The bare repository is made to refresh the files
// the dumb protocol reads after each push (receive.updateServerInfo) and refreshed now.
class GitHttpRemote {
 public:
  explicit GitHttpRemote(const std::string& bare_dir);
  ~GitHttpRemote();
  GitHttpRemote(const GitHttpRemote&) = delete;
  GitHttpRemote& operator=(const GitHttpRemote&) = delete;
  std::string url() const;
  std::vector<std::string> authorizations() const;

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<std::string> authorizations_;
};

// A TCP listener on 127.0.0.1 that records the bytes of every connection's request head (up to
// the blank line) and answers 502: what a planted proxy or a rewritten URL would receive.
class RecordingListener {
 public:
  // With `Forward::Yes` it is a plain-HTTP forward proxy as well: a request for an absolute
  // http://127.0.0.1:PORT/... URL is passed on to that port (one request per connection) and the
  // answer relayed; anything else still gets 502.
  enum class Forward { No, Yes };
  explicit RecordingListener(Forward forward = Forward::No);
  ~RecordingListener();
  RecordingListener(const RecordingListener&) = delete;
  RecordingListener& operator=(const RecordingListener&) = delete;
  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/"; }
  std::vector<std::string> requests() const;  // one entry per connection

 private:
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<std::string> requests_;
};

}  // namespace benchpr::testing
