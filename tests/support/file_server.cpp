#include "support/file_server.hpp"

#include <chrono>
#include <stdexcept>

#include <httplib.h>

namespace benchpr::testing {

FileServer::FileServer() : server_(std::make_unique<httplib::Server>()) {
  server_->set_keep_alive_timeout(1);
  server_->Get(".*", [this](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mutex_);
    requested_.push_back(req.path);
    auto it = files_.find(req.path);
    if (it == files_.end()) {
      res.status = 404;
      res.set_content("Not Found", "text/plain");
      return;
    }
    res.set_content(it->second, "application/octet-stream");
  });
  port_ = server_->bind_to_any_port("127.0.0.1");
  if (port_ <= 0) throw std::runtime_error("FileServer: cannot bind a port on 127.0.0.1");
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  // stop() is a no-op until the accept loop runs.
  for (int i = 0; i < 5000 && !server_->is_running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (!server_->is_running()) {
    server_->stop();
    thread_.join();
    throw std::runtime_error("FileServer: the server did not start");
  }
}

FileServer::~FileServer() {
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string FileServer::url() const { return "http://127.0.0.1:" + std::to_string(port_); }

void FileServer::serve(const std::string& path, std::string body) {
  std::lock_guard lock(mutex_);
  files_[path] = std::move(body);
}

std::vector<std::string> FileServer::requested() const {
  std::lock_guard lock(mutex_);
  return requested_;
}

}  // namespace benchpr::testing
