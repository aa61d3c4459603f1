// A plain HTTP server on 127.0.0.1 that answers GET for the paths a test registers (404 for the
// rest) and records what was asked: it stands for the GitHub server's release downloads.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace httplib {
class Server;
}

namespace benchpr::testing {

class FileServer {
 public:
  FileServer();
  ~FileServer();
  FileServer(const FileServer&) = delete;
  FileServer& operator=(const FileServer&) = delete;

  std::string url() const;  // "http://127.0.0.1:PORT"
  void serve(const std::string& path, std::string body);
  std::vector<std::string> requested() const;  // the paths asked for, in order

 private:
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
  mutable std::mutex mutex_;
  std::map<std::string, std::string> files_;
  std::vector<std::string> requested_;
};

}  // namespace benchpr::testing
